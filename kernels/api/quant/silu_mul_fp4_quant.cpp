#include "api/kernel_types.h"
#include "api/quant/quant_checks.h"
#include "vt/registry.h"

namespace vt {

void SiluMulFp4Quant(const ExecContext& ctx, const Tensor& out_packed, const Tensor& out_scale,
                     const Tensor& gate, const Tensor& up, float gsi, Fp4ScaleLayout layout) {
  const api::Checker c("silu_mul_fp4_quant");
  api::CheckFp4Input(c, ctx, gate, "gate", {DType::kF32, DType::kF16, DType::kBF16});
  api::CheckFp4InputLike(c, ctx, up, "up", {DType::kF32, DType::kF16, DType::kBF16}, gate, "gate",
                         /*same_dtype=*/true);
  c.Require("gate.i_multiple_of_16", gate.shape[1] % 16 == 0,
            "I (gate's inner dim) must be a multiple of 16, got " + gate.Describe());
  api::CheckFp4Outputs(c, ctx, out_packed, out_scale, gate.shape[0], gate.shape[1], gsi, layout,
                       {{gate, "gate"}, {up, "up"}});
  GetKernel<kernel::Fp4QuantBinaryFn>("silu_mul_fp4_quant", ctx.backend)(ctx, out_packed, out_scale,
                                                                         gate, up, gsi, layout);
}

}  // namespace vt
