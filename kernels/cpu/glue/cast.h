// The two cast kernels (cast_bf16: f32 -> bf16, cast_f32: bf16 -> f32): out
// holds in's elements in row-major order, each widened to f32 and stored to
// out's dtype. `in` may be row-strided: it is read through its strides,
// innermost row by innermost row (the seed read it flat, hazard H-4).
// Contract (validated by the API): equal element counts, out contiguous, in
// row-strided, no overlap. Split: flat output elements; a chunk walks the
// pieces of the input rows it covers.
#pragma once

#include <algorithm>

#include "cpu/glue/convert.h"
#include "vt/context.h"
#include "vt/threadpool.h"

namespace vt::cpu {

inline void CastCpu(const ExecContext& ctx, const Tensor& out, const Tensor& in) {
  const int64_t n = out.Numel();
  if (n == 0) return;
  const int64_t inner = in.shape[in.rank - 1];
  const ConvertFn move = PickConvert(out.dtype, in.dtype);
  const auto* src = static_cast<const unsigned char*>(in.data);
  auto* dst = static_cast<unsigned char*>(out.data);
  const int64_t se = static_cast<int64_t>(in.ElementSize());
  const int64_t de = static_cast<int64_t>(out.ElementSize());
  ParallelForRows(ctx, n, [&](int64_t e0, int64_t e1) {
    for (int64_t e = e0; e < e1;) {
      const int64_t row = e / inner, col = e % inner;
      const int64_t len = std::min(inner - col, e1 - e);
      move(dst + e * de, src + (RowOffset(in, row) + col) * se, len);
      e += len;
    }
  });
}

}  // namespace vt::cpu
