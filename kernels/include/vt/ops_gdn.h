// GDN (Gated DeltaNet) family: public API. Validation first (conventions in
// ops_norm.h): every shape, dtype, layout, scalar and every metadata VALUE
// (cumulative offsets, state slots: range and distinctness) is checked before
// any byte of any operand - in-place state included - is written.
// Contracts and decisions: docs/ops/gdn.md.
//
// The gated delta rule, per value head hv (key head hk = hv / (Hv/Hk)) and
// token t, on the [Dv,Dk] state block S of that head, all in f32:
//   q' = q * scale;  S = S * exp(g);  v' = (v - S k) * beta;
//   S = S + v' k^T;  out = S q'            (k is not scaled)
// q/k are expected to be L2-normalised already (not checked), except in
// GdnPackedDecode, which normalises them itself.
#pragma once

#include "vt/context.h"
#include "vt/tensor.h"

namespace vt {

struct GdnArgs {
  float scale = 0.0f;  // must be set: > 0 and finite (the query scale, usually Dk^-1/2)
};

// Varlen prefill. q, k [T,Hk,Dk] F; v [T,Hv,Dv] F; out [T,Hv,Dv] f32/bf16;
// g, beta [T,Hv] f32; state [N,Hv,Dv,Dk] f32 IN PLACE (sequence s starts from
// state[s] and leaves its final state there); query_start_loc i32 [N+1] with
// qsl[0] == 0, qsl[N] == T, non-decreasing (empty sequences allowed). All
// contiguous; Hk >= 1, Hv % Hk == 0, Dk, Dv >= 1.
void GdnPrefill(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
                const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                const Tensor& query_start_loc, const GdnArgs& args);

// One token per request (T == B). Operands as GdnPrefill; state f32 IN PLACE.
// Without state_idx: state [B,Hv,Dv,Dk], row b is request b's. With state_idx
// i32 [B]: state is the whole cache [slots,Hv,Dv,Dk]; a live index (>= 0) must
// be < slots and unique among the live ones; a NULL index (< 0) zero-fills
// that request's out row and touches no state.
void GdnDecode(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
               const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
               const Tensor* state_idx, const GdnArgs& args);

// Speculative decode with per-token state snapshots. Operands as GdnPrefill;
// state [slots,Hv,Dv,Dk] f32 IN PLACE; cu_seqlens i32 [R+1] (tiles [0,T],
// non-decreasing, every request length <= C); state_indices i32 [R,C], C >= 1;
// num_accepted_tokens i32 [R], each in [1, C]. Request r starts from slot
// state_indices[r][accepted-1] and, after its t-th token, stores the running
// state into slot state_indices[r][t]. A NULL start slot zero-fills the
// request's out rows and stores nothing; a NULL column skips only its store.
// Every live index must be < slots and appear once in state_indices.
void GdnSpecDecode(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
                   const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                   const Tensor& cu_seqlens, const Tensor& state_indices,
                   const Tensor& num_accepted_tokens, const GdnArgs& args);

// Packed decode straight from the projections. mixed_qkv [B, 2*Hk*Dk + Hv*Dv]
// laid out [q | k | v], a, b [B,Hv] (rows may be padded), out [B,Hv,Dv]
// contiguous: one F dtype (f16 legal). a_log, dt_bias [Hv] F; state
// [slots,Hv,Dv,Dk] F (its own dtype) IN PLACE, contiguous; state_idx i32 [B]
// (live indices < slots and distinct, NULL zero-fills the out row). Hv, Dv, Dk
// come from state, Hk from the width. In f32: q, k L2-normalised with eps
// 1e-6 (q then scaled); g = -exp(a_log) * softplus(a + dt_bias) (identity
// above 20); beta = sigmoid(b) rounded through b's dtype; then the rule above
// on the cache row, the state rounded to its dtype at the store.
void GdnPackedDecode(const ExecContext& ctx, const Tensor& out, const Tensor& mixed_qkv,
                     const Tensor& a, const Tensor& b, const Tensor& a_log, const Tensor& dt_bias,
                     const Tensor& state, const Tensor& state_idx, const GdnArgs& args);

}  // namespace vt
