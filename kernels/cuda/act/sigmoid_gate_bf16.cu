// sigmoid_gate_bf16 CUDA kernel: out = bf16(attn * sigmoid(gate)) over the
// flat order (LaunchFlat); f32, one rounding at the store.
#include "cuda/act/elementwise.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct SigmoidGateF {
  DevPtr attn, gate;
  __device__ float operator()(int64_t i) const { return Load(attn, i) * SigmoidF(Load(gate, i)); }
};

void SigmoidGateBf16Cuda(const ExecContext&, const Tensor& out, const Tensor& attn, const Tensor& gate) {
  LaunchFlat("sigmoid_gate_bf16", out, SigmoidGateF{Dev(attn), Dev(gate)});
}

}  // namespace

void Register_sigmoid_gate_bf16() { RegisterTyped<kernel::BinaryFn>("sigmoid_gate_bf16", VT_CUDA_BACKEND, &SigmoidGateBf16Cuda); }

}  // namespace vt::VT_CUDA_NS
