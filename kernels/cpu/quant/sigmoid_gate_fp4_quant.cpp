// sigmoid_gate_fp4_quant CPU kernel (Qwen3-Next's attn * sigmoid(gate) feeding
// o_proj's fp4 quant): DEFINED as the composite - sigmoid_gate_bf16's CPU
// kernel into a bf16 [M,K] scratch, then the fp4 quantizer on it.
// Contract: attn [M,K] f32/bf16, gate [M,K] f32, contiguous; K % 16 == 0.
#include "api/kernel_types.h"
#include "cpu/quant/fp4_quant_rows.h"
#include "vt/registry.h"

namespace vt::cpu {
namespace {

void SigmoidGateFp4QuantCpu(const ExecContext& ctx, const Tensor& out_packed, const Tensor& out_scale,
                            const Tensor& attn, const Tensor& gate, float gsi, Fp4ScaleLayout layout) {
  const auto sigmoid_gate = [&](const Tensor& act) {
    GetKernel<kernel::BinaryFn>("sigmoid_gate_bf16", Backend::kCPU)(ctx, act, attn, gate);
  };
  fp4::QuantizeBf16Activation(ctx, "sigmoid_gate_fp4_quant", out_packed, out_scale, attn.shape[0], attn.shape[1], gsi, layout, sigmoid_gate);
}

}  // namespace

void Register_sigmoid_gate_fp4_quant() {
  RegisterTyped<kernel::Fp4QuantBinaryFn>("sigmoid_gate_fp4_quant", Backend::kCPU, &SigmoidGateFp4QuantCpu);
}

}  // namespace vt::cpu
