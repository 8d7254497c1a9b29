// KDA (Kimi Delta Attention) family: public API of the gated delta rule with a
// per-key-channel decay. Both functions validate every operand, the varlen
// metadata values included, before the kernel writes a byte of out or of the
// in-place state. Contracts and decisions: docs/ops/kda.md.
#pragma once

#include "vt/context.h"
#include "vt/tensor.h"

namespace vt {

struct KdaArgs {
  float scale = 0.0f;  // q scale, finite and > 0 (usually Dk^-1/2); no default on purpose
};

// Per sequence s (tokens query_start_loc[s] .. query_start_loc[s+1]) and value
// head hv, with key head hk = hv / (Hv / Hk), state S = state[s,hv] [Dv,Dk],
// for each token in order (all f32):
//   S[:,i] *= exp(g[t,hv,i]);  u = (v[t,hv] - S k) * beta[t,hv];
//   S += u (x) k;  out[t,hv] = S (q * scale)
// q, k [T,Hk,Dk] and v [T,Hv,Dv] f32/f16/bf16; out [T,Hv,Dv] f32/bf16;
// g [T,Hv,Dk] f32; beta [T,Hv] f32; state [N,Hv,Dv,Dk] f32, in place;
// query_start_loc i32 [N+1]: starts at 0, ends at T, non-decreasing (empty
// sequences allowed). Hk >= 1, Hv % Hk == 0, Dk, Dv > 0. All contiguous; out
// and state overlap nothing.
void KdaGatedDeltaRule(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
                       const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                       const Tensor& query_start_loc, const KdaArgs& args);

// KDA prefill with the gate fused in front: per token, head h, channel i
//   x = g_raw[t,h,i] (+ dt_bias[h*Dk + i]);  sp = x > 20 ? x : log1p(exp(x))
//   g[t,h,i] = -exp(a_log[h]) * sp
// then KdaGatedDeltaRule. g_raw [T,Hv,Dk] f32; a_log [Hv] f32; dt_bias
// [Hv*Dk] f32 or empty ([0]: no bias); state [1,Hv,Dv,Dk] f32 (one
// sequence); query_start_loc i32 [2] = {0, T}; the rest as KdaGatedDeltaRule.
void KdaChunkPrefill(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
                     const Tensor& v, const Tensor& g_raw, const Tensor& beta, const Tensor& a_log,
                     const Tensor& dt_bias, const Tensor& state, const Tensor& query_start_loc,
                     const KdaArgs& args);

}  // namespace vt
