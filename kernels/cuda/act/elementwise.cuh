// The two launch shapes of the elementwise activation kernels; a kernel file
// gives only its per-element definition, as a functor whose __device__
// operator() computes in f32 (one rounding at the store):
//   LaunchFlat: out[i] = f(i) over out's elements in flat order (a
//               grid-stride loop; f loads its own operands at i);
//   LaunchGlu:  out[t, j] = f(x[t, j], x[t, D + j]) over x [T, 2D], one block
//               per row and a block-stride loop over the row's D outputs.
#pragma once

#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {

template <class F>
__global__ void FlatKernel(DevPtr out, int64_t n, F f) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    Store(out, i, f(i));
  }
}

template <class F>
void LaunchFlat(const char* op, const Tensor& out, F f) {
  const int64_t n = out.Numel();
  if (n == 0) return;
  VT_LAUNCH(FlatKernel<F>, FlatGrid(n), FlatThreads(), 0)(Dev(out), n, f);
  CheckLaunch(op);
}

template <class F>
__global__ void GluKernel(DevPtr out, DevPtr x, int64_t rows, int64_t d, F f) {
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    for (int64_t j = threadIdx.x; j < d; j += blockDim.x) {
      Store(out, row * d + j, f(Load(x, row * 2 * d + j), Load(x, row * 2 * d + d + j)));
    }
  }
}

template <class F>
void LaunchGlu(const char* op, const Tensor& out, const Tensor& x, F f) {
  const int64_t rows = out.shape[0], d = out.shape[1];
  if (rows == 0 || d == 0) return;
  VT_LAUNCH(GluKernel<F>, RowGrid(rows), RowThreads(d), 0)(Dev(out), Dev(x), rows, d, f);
  CheckLaunch(op);
}

}  // namespace vt::VT_CUDA_NS
