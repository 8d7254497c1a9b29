// The row loop of the GLU ops' vector tiers (silu_and_mul, gelu_and_mul):
// x [T, 2D] -> out [T, D], contiguous; each row's gate half, up half and
// output row go to the tier's span on the pool, each block of rows counting
// the tier's run (CountTierRun).
#pragma once

#include <cstdint>

#include "cpu/simd/target.h"
#include "vt/isa.h"
#include "vt/tensor.h"
#include "vt/threadpool.h"

namespace vt::cpu {

// Whether a tier writes out with non-temporal stores (kStreamOutBytes).
inline bool GluStreamsOut(const Tensor& out) {
  return out.Numel() * static_cast<int64_t>(SizeOf(out.dtype)) >= kStreamOutBytes;
}

// span(gate_row, up_row, out_row, d) for every row, raw storage pointers.
template <class Span>
void GluTierRows(const ExecContext& ctx, Isa tier, const Tensor& out, const Tensor& x, const Span& span) {
  const int64_t d = out.shape[1];
  const auto* xb = static_cast<const unsigned char*>(x.data);
  auto* ob = static_cast<unsigned char*>(out.data);
  const int64_t xe = static_cast<int64_t>(x.ElementSize()), oe = static_cast<int64_t>(out.ElementSize());
  ParallelForRows(ctx, out.shape[0], [&](int64_t r0, int64_t r1) {
    CountTierRun(tier);
    for (int64_t i = r0; i < r1; ++i) {
      const unsigned char* row = xb + i * 2 * d * xe;
      span(row, row + d * xe, ob + i * d * oe, d);
    }
  });
}

}  // namespace vt::cpu
