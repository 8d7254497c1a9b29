// mul_scalar CUDA kernel: out = x * s.
// A flat grid-stride loop over the elements; f32, one rounding at the store.
#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void MulScalarKernel(DevPtr out, DevPtr x, float s, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    Store(out, i, Load(x, i) * s);
  }
}

void MulScalarCuda(const ExecContext&, const Tensor& out, const Tensor& x, float s) {
  const int64_t n = out.Numel();
  if (n == 0) return;
  VT_LAUNCH(MulScalarKernel, FlatGrid(n), 256, 0)(Dev(out), Dev(x), s, n);
  CheckLaunch("mul_scalar");
}

}  // namespace

void Register_mul_scalar() { RegisterTyped<kernel::ScalarUnaryFn>("mul_scalar", VT_CUDA_BACKEND, &MulScalarCuda); }

}  // namespace vt::VT_CUDA_NS
