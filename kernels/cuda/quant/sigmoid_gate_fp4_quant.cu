// sigmoid_gate_fp4_quant CUDA kernel (Qwen3-Next's attn * sigmoid(gate)
// feeding o_proj's fp4 quant): DEFINED (as the CPU's) as sigmoid_gate_bf16,
// then the fp4 quantizer; fused here: each lane computes
// attn * sigmoid(gate) in f32 (the sigmoid_gate_bf16 expression), rounds it
// to bf16 - that op's output, kept exactly - and quantizes it
// (fp4_quant.cuh). The CPU's bytes on cuda-emu (exp: the host libm there,
// the double exp rounded once on a device).
// Validated upstream: attn [M,K] f32/bf16, gate [M,K] f32, contiguous; K % 16 == 0.
#include "cuda/quant/fp4_quant.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct SigmoidGateBf16 {
  DevPtr attn, gate;
  int64_t k = 0;
  __device__ float operator()(int64_t row, int64_t col) const {
    const int64_t e = row * k + col;
    return RoundThrough(DType::kBF16, Load(attn, e) * SigmoidF(Load(gate, e)));
  }
};

void SigmoidGateFp4QuantCuda(const ExecContext&, const Tensor& out_packed, const Tensor& out_scale,
                             const Tensor& attn, const Tensor& gate, float gsi, Fp4ScaleLayout layout) {
  const int64_t k = attn.shape[1];
  fp4::LaunchFp4Quant("sigmoid_gate_fp4_quant", out_packed, out_scale, attn.shape[0], k, gsi, layout,
                      SigmoidGateBf16{Dev(attn), Dev(gate), k});
}

}  // namespace

void Register_sigmoid_gate_fp4_quant() {
  RegisterTyped<kernel::Fp4QuantBinaryFn>("sigmoid_gate_fp4_quant", VT_CUDA_BACKEND, &SigmoidGateFp4QuantCuda);
}

}  // namespace vt::VT_CUDA_NS
