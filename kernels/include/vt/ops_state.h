// Indexed state-cache movement for the linear-attention layers (GDN conv and
// recurrent states): public API. The cache rows may be f32, f16 or bf16; the
// compact working buffer is always f32. Every index is checked before the
// first write. Contracts and decisions: docs/ops/state.md.
#pragma once

#include "vt/context.h"
#include "vt/tensor.h"

namespace vt {

// working[r, ...] = f32(cache[idx[r], ..., :Lw]), or zeros where
// has_initial_state[r] == 0. cache [slots, mid..., Lc] rank 2..4, f32/f16/bf16
// contiguous; working [N, mid..., Lw] f32 contiguous, same rank and middle
// dims, Lw <= Lc (a widened cache row: the leading Lw columns, at the physical
// stride Lc); state_idx i32 [N] contiguous, each in [0, slots);
// has_initial_state i8/i32 [N] or null.
void GdnStateGather(const ExecContext& ctx, const Tensor& working, const Tensor& cache, const Tensor& state_idx,
                    const Tensor* has_initial_state = nullptr);

// IN PLACE on cache: cache[idx[r], ..., :Lw] = working[r, ...] rounded to the
// cache dtype (nearest even); the other columns and slots are untouched.
// Shapes as GdnStateGather; every index in [0, slots) and distinct (H-2).
void GdnStateScatter(const ExecContext& ctx, const Tensor& cache, const Tensor& working, const Tensor& state_idx);

}  // namespace vt
