// soft_cap CUDA kernel: out = cap * tanh(x / cap), true division.
// A flat grid-stride loop over the elements; f32, one rounding at the store.
#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void SoftCapKernel(DevPtr out, DevPtr x, float cap, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    Store(out, i, cap * TanhF(Load(x, i) / cap));
  }
}

void SoftCapCuda(const ExecContext&, const Tensor& out, const Tensor& x, float cap) {
  const int64_t n = out.Numel();
  if (n == 0) return;
  VT_LAUNCH(SoftCapKernel, FlatGrid(n), 256, 0)(Dev(out), Dev(x), cap, n);
  CheckLaunch("soft_cap");
}

}  // namespace

void Register_soft_cap() { RegisterTyped<kernel::ScalarUnaryFn>("soft_cap", VT_CUDA_BACKEND, &SoftCapCuda); }

}  // namespace vt::VT_CUDA_NS
