// Block reductions for the row kernels (one block per row, whole warps).
// Sums are carried in double: each thread adds its f32 terms (already
// rounded as the definition rounds them) in double, the warps combine with
// xor shuffles, warp 0 combines the warps' partials, and the caller rounds
// the total to f32 once. A double sum of n f32 terms is within n * 2^-53 of
// the exact sum in ANY order, so the tree order costs nothing measurable and
// the result stays inside the sequential f32 Bounded bound (derivation in
// docs/cuda.md, "Reductions"); the fixed tree also makes it deterministic.
#pragma once

#include <cmath>

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

// The maximum of each thread's m over the block; every thread gets it. A NaN
// never replaces a value (`o > m ? o : m`), so with NaN-free partials any tree
// gives the sequential scan's value (up to the sign of a zero maximum).
// Needs blockDim.x a multiple of 32; `scratch` is __shared__ float[33].
__device__ __forceinline__ float BlockMax(float m, float* scratch) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    const float o = __shfl_xor_sync(0xffffffffu, m, offset);
    m = o > m ? o : m;
  }
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  if (lane == 0) scratch[warp] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = -INFINITY;
    for (unsigned w = 0; w < warps; ++w) t = scratch[w] > t ? scratch[w] : t;
    scratch[32] = t;
  }
  __syncthreads();
  const float total = scratch[32];
  __syncthreads();  // every thread has read the total before scratch is reused
  return total;
}

}  // namespace vt::VT_CUDA_NS
