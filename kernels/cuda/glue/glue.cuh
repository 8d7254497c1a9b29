// Pieces of the glue family's CUDA kernels: moves of single elements (through
// f32 like the CPU's convert.h, or as raw bytes for the index ops), index
// loads, and the strided addressing of the CPU kernels (cpu/glue/convert.h
// RowOffset, cpu/glue/rows.h SubRowOffset) as a view passed by value.
// Every glue kernel but index_copy is a flat grid over its output elements
// (LaunchForEach, cuda/core/for_each.cuh): each element written by one thread.
#pragma once

#include "cuda/core/access.cuh"
#include "cuda/core/for_each.cuh"

namespace vt::VT_CUDA_NS {

// A tensor's shape and strides, by value (kernel argument).
struct View {
  int rank = 1;
  int64_t shape[kMaxRank] = {0, 0, 0, 0};
  int64_t stride[kMaxRank] = {0, 0, 0, 0};
};
inline View ViewOf(const Tensor& t) {
  View v;
  v.rank = t.rank;
  for (int d = 0; d < kMaxRank; ++d) {
    v.shape[d] = t.shape[d];
    v.stride[d] = t.stride[d];
  }
  return v;
}

// Element offset of row `row` of a view whose rows are its innermost extent
// (cpu/glue/convert.h RowOffset).
__device__ __forceinline__ int64_t RowOffset(const View& t, int64_t row) {
  int64_t off = 0;
  for (int d = t.rank - 1; d-- > 0;) {
    off += (row % t.shape[d]) * t.stride[d];
    row /= t.shape[d];
  }
  return off;
}

// Element offset of innermost row `sub` of index row `row` (cpu/glue/rows.h).
__device__ __forceinline__ int64_t SubRowOffset(const View& t, int64_t row, int64_t sub) {
  int64_t off = row * t.stride[0];
  for (int d = t.rank - 1; d-- > 1;) {
    off += (sub % t.shape[d]) * t.stride[d];
    sub /= t.shape[d];
  }
  return off;
}

// Elements per innermost row of an index row, and innermost rows per index
// row (cpu/glue/rows.h IndexRowShape).
struct RowShape {
  int64_t sub_rows = 1, inner = 1;
};
inline RowShape IndexRowShape(const Tensor& t) {
  RowShape s;
  s.inner = t.rank == 1 ? 1 : t.shape[t.rank - 1];
  for (int d = 1; d + 1 < t.rank; ++d) s.sub_rows *= t.shape[d];
  return s;
}

// dst[di] = src[si] through f32 (f32 / f16 / bf16 either side): a narrowing
// store rounds to nearest even, a signalling NaN comes out quiet - the CPU's
// move, not a byte copy.
__device__ __forceinline__ void MoveF32(DevPtr dst, int64_t di, DevPtr src, int64_t si) {
  Store(dst, di, Load(src, si));
}

// The raw bytes of element si of src to element di of dst (any dtype; the
// validation has checked natural alignment, so a typed access is safe).
__device__ __forceinline__ void CopyElement(void* dst, int64_t di, const void* src, int64_t si, int es) {
  switch (es) {
    case 1: static_cast<uint8_t*>(dst)[di] = static_cast<const uint8_t*>(src)[si]; break;
    case 2: static_cast<uint16_t*>(dst)[di] = static_cast<const uint16_t*>(src)[si]; break;
    case 4: static_cast<uint32_t*>(dst)[di] = static_cast<const uint32_t*>(src)[si]; break;
    default: static_cast<uint64_t*>(dst)[di] = static_cast<const uint64_t*>(src)[si]; break;
  }
}

// Index i of an i32 / i64 index operand.
__device__ __forceinline__ int64_t LoadIndex(DevPtr idx, int64_t i) {
  return idx.dt == DType::kI32 ? static_cast<const int32_t*>(idx.p)[i] : static_cast<const int64_t*>(idx.p)[i];
}

}  // namespace vt::VT_CUDA_NS
