// moe_relu2 CUDA kernel: out = max(x, 0)^2, squared in f32.
// A flat grid-stride loop over the elements; f32, one rounding at the store.
#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void MoeRelu2Kernel(DevPtr out, DevPtr x, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const float f = Load(x, i);
    const float v = f > 0.0f ? f : 0.0f;
    Store(out, i, v * v);
  }
}

void MoeRelu2Cuda(const ExecContext&, const Tensor& out, const Tensor& x) {
  const int64_t n = out.Numel();
  if (n == 0) return;
  VT_LAUNCH(MoeRelu2Kernel, FlatGrid(n), 256, 0)(Dev(out), Dev(x), n);
  CheckLaunch("moe_relu2");
}

}  // namespace

void Register_moe_relu2() { RegisterTyped<kernel::UnaryFn>("moe_relu2", VT_CUDA_BACKEND, &MoeRelu2Cuda); }

}  // namespace vt::VT_CUDA_NS
