// silu_mul_fp4_quant CPU kernel: DEFINED as the composite - moe_silu_mul's
// CPU kernel into a bf16 [M,I] scratch, then the fp4 quantizer on it - so the
// bf16 store/load boundary of the fused CUDA producer is kept exactly.
// Contract: gate, up [M,I] one float dtype, contiguous; I % 16 == 0.
#include "api/kernel_types.h"
#include "cpu/quant/fp4_quant_rows.h"
#include "vt/registry.h"

namespace vt::cpu {
namespace {

void SiluMulFp4QuantCpu(const ExecContext& ctx, const Tensor& out_packed, const Tensor& out_scale,
                        const Tensor& gate, const Tensor& up, float gsi, Fp4ScaleLayout layout) {
  const auto silu_mul = [&](const Tensor& act) {
    GetKernel<kernel::BinaryFn>("moe_silu_mul", Backend::kCPU)(ctx, act, gate, up);
  };
  fp4::QuantizeBf16Activation(ctx, "silu_mul_fp4_quant", out_packed, out_scale, gate.shape[0], gate.shape[1], gsi, layout, silu_mul);
}

}  // namespace

void Register_silu_mul_fp4_quant() {
  RegisterTyped<kernel::Fp4QuantBinaryFn>("silu_mul_fp4_quant", Backend::kCPU, &SiluMulFp4QuantCpu);
}

}  // namespace vt::cpu
