// The flat launch shape for kernels that write more than one output per
// index, or through their own addressing: f(i) for every i in [0, n), one
// thread per index, a grid-stride loop (any FlatGrid cap is correct). f is a
// functor with a __device__ operator()(int64_t) that stores its own outputs.
#pragma once

#include "cuda/core/common.cuh"

namespace vt::VT_CUDA_NS {

// f(i) for every i in [0, n): a grid-stride loop, one thread per element;
// f stores its own outputs.
template <class F>
__global__ void ForEachKernel(int64_t n, F f) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    f(i);
  }
}

template <class F>
void LaunchForEach(const char* op, int64_t n, F f) {
  if (n <= 0) return;
  VT_LAUNCH(ForEachKernel<F>, FlatGrid(n), FlatThreads(), 0)(n, f);
  CheckLaunch(op);
}

}  // namespace vt::VT_CUDA_NS
