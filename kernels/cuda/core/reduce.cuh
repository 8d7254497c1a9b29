// Block reductions for the row kernels (one block per row, whole warps).
// Sums are carried in double: each thread adds its f32 terms (already
// rounded as the definition rounds them) in double, the warps combine with
// xor shuffles, warp 0 combines the warps' partials, and the caller rounds
// the total to f32 once. A double sum of n f32 terms is within n * 2^-53 of
// the exact sum in ANY order, so the tree order costs nothing measurable and
// the result stays inside the sequential f32 Bounded bound (derivation in
// docs/cuda.md, "Reductions"); the fixed tree also makes it deterministic.
#pragma once

#include "cuda/core/common.cuh"

namespace vt::VT_CUDA_NS {

__device__ __forceinline__ double WarpSum(double v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// Sum of v over the block; every thread gets the total. Needs blockDim.x a
// multiple of 32 (<= 1024). `scratch` is __shared__ double[33]; the caller
// may reuse it after the call returns.
__device__ __forceinline__ double BlockSum(double v, double* scratch) {
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  const unsigned warps = blockDim.x >> 5;
  v = WarpSum(v);
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  if (warp == 0) {
    double t = lane < warps ? scratch[lane] : 0.0;
    t = WarpSum(t);
    if (lane == 0) scratch[32] = t;
  }
  __syncthreads();
  const double total = scratch[32];
  // No thread may overwrite scratch (the next row's partials) before every
  // thread has read the total.
  __syncthreads();
  return total;
}

}  // namespace vt::VT_CUDA_NS
