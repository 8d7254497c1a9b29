// The KDA recurrence (fla fused_recurrent_kda / the seed's KDA token step),
// shared by kda_gated_delta_rule and kda_chunk_prefill. Per (sequence,
// value head) item, key head hk = hv / (Hv / Hk), state block S [Dv, Dk], for
// each token of the sequence in order, all f32:
//   d_i = exp(g[t,hv,i]);  q'_i = q_i * scale
//   per value row r:  S[r,i] *= d_i, dot_r = sum_i S[r,i] k_i (i ascending);
//                     u_r = (v_r - dot_r) * beta
//   per value row r:  S[r,i] += u_r k_i, out_r = sum_i S[r,i] q'_i (i ascending)
// Contract (validated by the API): shapes of ops_kda.h, f32 g/beta/state, all
// contiguous, query_start_loc tiles [0, T) in order. Split: (sequence, value
// head) items; each owns its state block and its out rows, so the bytes do not
// depend on the thread count.
#pragma once

#include "vt/context.h"
#include "vt/isa.h"
#include "vt/ops_kda.h"
#include "vt/tensor.h"

namespace vt::cpu {

// `g` is an f32 [T,Hv,Dk] contiguous view (the op's g, or the gate
// kda_chunk_prefill computed). `tier`: the calling op's tier (PickTier on its
// tier-table line); a vector tier runs the same step with value rows in lanes
// (cpu/gdn/delta_tiers.h, per-key decay), the portable tier the loops here.
void KdaRecurrence(const ExecContext& ctx, Isa tier, const Tensor& out, const Tensor& q, const Tensor& k,
                   const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                   const Tensor& query_start_loc, float scale);

}  // namespace vt::cpu
