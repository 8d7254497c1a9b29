// The vector tiers of mamba2_state_update (portable declarations only: the
// tier code lives in mamba_step_avx512.cpp / mamba_step_avx2.cpp, over
// mamba_step.inc).
//
// Bytes: per (row, head, p) the portable tier updates the state row [N]
// elementwise, s' = s * dA + (B_n * x_p) * d, stores s' at the state dtype and
// sums y = sum_n s'_n C_n in one sequential f32 chain in n. The tiers compute
// s' and s' * C kLanes columns at a time along the row (elementwise: no order
// to keep), and run kLanes p-rows' y chains side by side, one p per lane,
// through a kLanes x kLanes register transpose of each block of products (the
// row norms' panel, cpu/norm/norm_panel.inc). Everything per head or per p
// (softplus, exp, D, silu(z)) stays the portable tier's scalar code.
#pragma once

#include <cstdint>

#include "vt/context.h"
#include "vt/dtype.h"

namespace vt::cpu {

// One (batch row, head): its state block and the values the portable tier
// derives for it, widened to f32 once (exact).
struct Mamba2HeadJob {
  void* state = nullptr;  // the head's contiguous [P, N] block, f32/bf16, in place
  DType state_dt = DType::kF32;
  const float* x = nullptr;  // [P]
  const float* B = nullptr;  // [N], the head's group
  const float* C = nullptr;  // [N]
  float d = 0.0f;            // dt after bias / softplus
  float decay = 0.0f;        // exp(A d)
  int64_t P = 0, N = 0;
  float* y = nullptr;  // [P] out: y_p = sum_n s'_n C_n, before D and z
};

namespace avx512 {
void Mamba2Head(const Mamba2HeadJob& job);
}  // namespace avx512
namespace avx2 {
void Mamba2Head(const Mamba2HeadJob& job);
}  // namespace avx2

}  // namespace vt::cpu
