// moe_silu_mul CUDA kernel: out = silu(gate) * up.
// A flat grid-stride loop over the elements; f32, one rounding at the store.
#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void MoeSiluMulKernel(DevPtr out, DevPtr gate, DevPtr up, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    Store(out, i, SiluF(Load(gate, i)) * Load(up, i));
  }
}

void MoeSiluMulCuda(const ExecContext&, const Tensor& out, const Tensor& gate, const Tensor& up) {
  const int64_t n = out.Numel();
  if (n == 0) return;
  VT_LAUNCH(MoeSiluMulKernel, FlatGrid(n), 256, 0)(Dev(out), Dev(gate), Dev(up), n);
  CheckLaunch("moe_silu_mul");
}

}  // namespace

void Register_moe_silu_mul() { RegisterTyped<kernel::BinaryFn>("moe_silu_mul", VT_CUDA_BACKEND, &MoeSiluMulCuda); }

}  // namespace vt::VT_CUDA_NS
