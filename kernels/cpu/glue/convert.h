// Element moves for the glue kernels. The seed moves floats by widening to
// f32 and storing to the destination dtype (round to nearest even when that
// narrows). That is not a byte copy even between equal dtypes: a signalling
// bf16/f16 NaN comes out quiet. The converter for a (destination, source)
// dtype pair is picked once per call, so the inner loops are typed.
#pragma once

#include <cstdint>

#include "vt/dtype.h"
#include "vt/tensor.h"

namespace vt::cpu {

// Converts n packed elements from src to dst (no overlap).
using ConvertFn = void (*)(void* dst, const void* src, int64_t n);

// The converter through f32 for float dtypes (f32/f16/bf16 both sides);
// nullptr for any other pair (the API layer has refused those).
ConvertFn PickConvert(DType dst, DType src);

// Element offset of row `row` of a view whose rows are its innermost extent:
// the leading dims' multi-index of `row` (row-major) times their strides.
// Rank 1: one row at offset 0.
inline int64_t RowOffset(const Tensor& t, int64_t row) {
  int64_t off = 0;
  for (int d = t.rank - 1; d-- > 0;) {
    off += (row % t.shape[d]) * t.stride[d];
    row /= t.shape[d];
  }
  return off;
}

}  // namespace vt::cpu
