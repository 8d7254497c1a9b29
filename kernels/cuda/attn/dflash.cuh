// The DFlash pieces both DFlash kernels share: the mask (cpu/attn/dflash_mask.h)
// and the request a packed token belongs to. The DFlash kernels launch a
// block per (token, q-head) row: a token finds its request in cu_seqlens
// (device memory) by binary search, so the launch needs no host read of the
// metadata and every row is one query's work, whatever the block lengths.
#pragma once

#include "cuda/attn/attend_row.cuh"

namespace vt::VT_CUDA_NS::attn {

struct KeyRange {
  int64_t lo, hi;  // inclusive
};

// A query at index q of a request's n keys sees [lo, hi]: all n
// (bidirectional); [0, q] (causal); [max(0, q - (w - 1)), q] (causal, window w > 0).
__device__ __forceinline__ KeyRange DFlashVisible(int64_t q, int64_t n, bool causal, int64_t window) {
  if (!causal) return KeyRange{0, n - 1};
  const int64_t from = q - (window - 1);
  return KeyRange{window > 0 && from > 0 ? from : 0, q};
}

// The request of packed token t: the last r in [0, reqs) with cu[r] <= t
// (an empty request shares its start with the next one, which holds t).
// cu: [reqs + 1], cu[0] = 0 <= ... <= cu[reqs] = T > t (validated).
__device__ __forceinline__ int64_t RequestOf(const int32_t* cu, int64_t reqs, int64_t t) {
  int64_t lo = 0, hi = reqs - 1;
  while (lo < hi) {
    const int64_t mid = (lo + hi + 1) / 2;
    if (cu[mid] <= t) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

}  // namespace vt::VT_CUDA_NS::attn
