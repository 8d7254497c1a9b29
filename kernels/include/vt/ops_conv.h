// Causal depthwise conv1d family (vLLM mamba/ops/causal_conv1d.py): public API.
// Every call validates all operands - shapes, dtypes, layouts, overlaps and
// every metadata value (cumulative offsets, state slots, accepted counts) -
// before the kernel writes a byte, so a refused call leaves every operand,
// the in-place conv_state included, byte-unchanged. Arithmetic is f32; the
// state stores raw x values (f32). Contracts and decisions: docs/ops/conv.md.
#pragma once

#include "vt/context.h"
#include "vt/tensor.h"

namespace vt {

struct CausalConv1dArgs {
  bool silu_activation = true;  // false: identity
};

// Varlen prefill. Sequence s owns tokens [qsl[s], qsl[s+1]) and conv_state
// row s. out[t,c] = act(bias[c] + sum_j w[c,j] * window_j), the window being
// the K taps ending at token t; taps before the sequence start come from the
// old state row (has_initial_state[s] != 0) or are 0. IN PLACE: conv_state[s]
// becomes the last K-1 raw x of the sequence, left-padded with the old state
// (or zeros) when the sequence is shorter than K-1.
// x [T,C] F, rows may be padded; out [T,C] f32/bf16 contiguous; weight [C,K]
// F contiguous, K >= 1; bias [C] F or null; conv_state [N,C,K-1] f32
// contiguous (exactly K-1: decision H-4); query_start_loc i32 [N+1] with
// qsl[0] = 0, qsl[N] = T, non-decreasing; has_initial_state i8/i32 [N].
void CausalConv1dFwd(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
                     const Tensor* bias, const Tensor& conv_state, const Tensor& query_start_loc,
                     const Tensor& has_initial_state, const CausalConv1dArgs& args = {});

// One decode token per row b. Row b uses conv_state slot idx[b] (or slot b
// without indices); a negative index is a NULL slot: out row zero-filled,
// no state touched. out[b,c] = act(bias[c] + sum_{j<K-1} w[c,j] state[j] +
// w[c,K-1] x[b,c]); then the slot's leading K-1 taps roll left by one and
// take the raw x. IN PLACE on conv_state.
// x [B,C] F row-padded; out [B,C] f32/bf16 contiguous; conv_state [N,C,L] f32
// contiguous with L >= K-1 (only the leading K-1 taps of each row are used,
// at the physical row stride L). Without indices N == B; with indices i32 [B]
// contiguous, N >= B, every live index < N and distinct (H-1, H-2).
void CausalConv1dUpdate(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
                        const Tensor* bias, const Tensor& conv_state, const Tensor* conv_state_indices,
                        const CausalConv1dArgs& args = {});

// Speculative update: request r owns tokens [cu[r], cu[r+1]) and slot idx[r]
// (negative: NULL, its out rows zero-filled). The conv_state row is the
// widened window of L = (K-1) + (max_query_len - 1) taps; the request reads
// its window at offset num_accepted_tokens[r] - 1 and its new row is
// old[off+1 .. off+L-n] (0 past L) followed by its n raw x values.
// K >= 2; conv_state [N,C,L] f32 contiguous, L >= K-1; cu_seqlens i32 [R+1],
// R >= 1, cu[0] = 0, cu[R] = T, each length in [0, max_query_len];
// num_accepted_tokens i32 [R] in [1, max_query_len]; conv_state_indices i32
// [R], live indices < N and distinct.
void CausalConv1dSpecUpdate(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
                            const Tensor* bias, const Tensor& conv_state, const Tensor& conv_state_indices,
                            const Tensor& num_accepted_tokens, const Tensor& cu_seqlens,
                            const CausalConv1dArgs& args = {});

}  // namespace vt
