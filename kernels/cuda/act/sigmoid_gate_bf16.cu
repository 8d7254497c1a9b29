// sigmoid_gate_bf16 CUDA kernel: out = bf16(attn * sigmoid(gate)).
// A flat grid-stride loop over the elements; f32, one rounding at the store.
#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void SigmoidGateBf16Kernel(DevPtr out, DevPtr attn, DevPtr gate, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    Store(out, i, Load(attn, i) * SigmoidF(Load(gate, i)));
  }
}

void SigmoidGateBf16Cuda(const ExecContext&, const Tensor& out, const Tensor& attn, const Tensor& gate) {
  const int64_t n = out.Numel();
  if (n == 0) return;
  VT_LAUNCH(SigmoidGateBf16Kernel, FlatGrid(n), 256, 0)(Dev(out), Dev(attn), Dev(gate), n);
  CheckLaunch("sigmoid_gate_bf16");
}

}  // namespace

void Register_sigmoid_gate_bf16() { RegisterTyped<kernel::BinaryFn>("sigmoid_gate_bf16", VT_CUDA_BACKEND, &SigmoidGateBf16Cuda); }

}  // namespace vt::VT_CUDA_NS
