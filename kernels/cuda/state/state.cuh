// The layout gdn_state_gather and gdn_state_scatter share: the working buffer
// [N, mid..., Lw] f32 and the cache [slots, mid..., Lc] (f32/f16/bf16), both
// contiguous, Lw <= Lc (the leading columns of a widened row). Both kernels
// are flat copies over the working elements - a thread per element, a
// grid-stride loop - so element e of working row r maps to one cache element
// of slot idx[r].
#pragma once

#include "cuda/conv/meta.cuh"

namespace vt::VT_CUDA_NS {

struct StateLayout {
  int64_t rows, mid, lw, lc;  // working rows N, innermost rows per slot, row widths
  __device__ int64_t Row(int64_t i) const { return i / (mid * lw); }
  // Cache element of working element i (working row Row(i)) in `slot`.
  __device__ int64_t CacheAt(int64_t slot, int64_t i) const {
    const int64_t in_row = i % (mid * lw);
    return slot * mid * lc + in_row / lw * lc + in_row % lw;
  }
};

inline StateLayout StateLayoutOf(const Tensor& working, const Tensor& cache) {
  const int inner = working.rank - 1;
  StateLayout l{working.shape[0], 1, working.shape[inner], cache.shape[inner]};
  for (int d = 1; d < inner; ++d) l.mid *= working.shape[d];
  return l;
}

}  // namespace vt::VT_CUDA_NS
