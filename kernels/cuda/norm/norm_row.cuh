// Pieces shared by the rms-type CUDA norm kernels (rms_norm, its fp8
// variant, the gated norms, fused_chain's rms_norm step): the residual
// stream of one element, the input the definition normalises, the weight
// (gemma: w + 1), and the row's inverse rms from a block reduction.
#pragma once

#include "cuda/core/access.cuh"
#include "cuda/core/reduce.cuh"

namespace vt::VT_CUDA_NS {

// residual[i] = round(x[i] + residual[i]); the rounded value is read back
// (it is what the definition normalises). Without a residual: x[i].
__device__ __forceinline__ float StreamResidual(DevPtr x, DevPtr res, int64_t i) {
  float v = Load(x, i);
  if (res.p != nullptr) {
    Store(res, i, v + Load(res, i));
    v = Load(res, i);
  }
  return v;
}

// The value normalised at i once the residual stream has run.
__device__ __forceinline__ float NormedInput(DevPtr x, DevPtr res, int64_t i) {
  return res.p != nullptr ? Load(res, i) : Load(x, i);
}

__device__ __forceinline__ float NormWeight(DevPtr w, int64_t j, bool gemma) {
  float wj = Load(w, j);
  if (gemma) wj += 1.0f;
  return wj;
}

// 1 / sqrt(sumsq / n + eps) of the row's values value(j), j in [0, n):
// each square in f32, summed in double over the block (BlockSum), the sum
// rounded to f32 once. Every thread of the block must call it (a barrier).
template <class Value>
__device__ __forceinline__ float RowInvRms(int64_t n, float eps, double* scratch, Value value) {
  double acc = 0.0;
  for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
    const float v = value(j);
    const float sq = v * v;
    acc += static_cast<double>(sq);
  }
  const float sumsq = static_cast<float>(BlockSum(acc, scratch));
  return 1.0f / SqrtF(sumsq / static_cast<float>(n) + eps);
}

// The rows of an rms_norm-style kernel (rms_norm and its fp8 variant), one
// block per row: the residual stream, inv, then emit(i, v * inv * w) for each
// element i of the row; emit stores the normed value.
template <class Emit>
__device__ __forceinline__ void ForRmsRows(DevPtr x, DevPtr w, DevPtr res, int64_t rows, int64_t h, float eps,
                                           bool gemma, double* scratch, Emit emit) {
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const int64_t base = row * h;
    const float inv = RowInvRms(h, eps, scratch, [&](int64_t j) { return StreamResidual(x, res, base + j); });
    for (int64_t j = threadIdx.x; j < h; j += blockDim.x) {
      const float v = NormedInput(x, res, base + j);
      const float wj = NormWeight(w, j, gemma);
      emit(base + j, v * inv * wj);
    }
  }
}

}  // namespace vt::VT_CUDA_NS
