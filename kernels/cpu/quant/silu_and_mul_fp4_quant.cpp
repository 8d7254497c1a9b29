// silu_and_mul_fp4_quant CPU kernel (vLLM's one-input silu_and_mul_nvfp4_quant):
// DEFINED as the composite - silu_and_mul's CPU kernel into a bf16 [M,I]
// scratch, then the fp4 quantizer on it (the bf16 boundary kept exactly).
// Contract: gate_up [M,2I] f32/bf16 contiguous, gate half first; I % 16 == 0.
#include "api/kernel_types.h"
#include "cpu/quant/fp4_quant_rows.h"
#include "vt/registry.h"

namespace vt::cpu {
namespace {

void SiluAndMulFp4QuantCpu(const ExecContext& ctx, const Tensor& out_packed, const Tensor& out_scale,
                           const Tensor& gate_up, float gsi, Fp4ScaleLayout layout) {
  const auto silu_and_mul = [&](const Tensor& act) {
    GetKernel<kernel::UnaryFn>("silu_and_mul", Backend::kCPU)(ctx, act, gate_up);
  };
  const int64_t i = gate_up.shape[1] / 2;
  fp4::QuantizeBf16Activation(ctx, "silu_and_mul_fp4_quant", out_packed, out_scale, gate_up.shape[0], i, gsi, layout, silu_and_mul);
}

}  // namespace

void Register_silu_and_mul_fp4_quant() {
  RegisterTyped<kernel::Fp4QuantFn>("silu_and_mul_fp4_quant", Backend::kCPU, &SiluAndMulFp4QuantCpu);
}

}  // namespace vt::cpu
