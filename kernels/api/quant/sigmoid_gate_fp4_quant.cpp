#include "api/kernel_types.h"
#include "api/quant/quant_checks.h"
#include "vt/registry.h"

namespace vt {

void SigmoidGateFp4Quant(const ExecContext& ctx, const Tensor& out_packed, const Tensor& out_scale,
                         const Tensor& attn, const Tensor& gate, float gsi, Fp4ScaleLayout layout) {
  const api::Checker c("sigmoid_gate_fp4_quant");
  api::CheckFp4Input(c, ctx, attn, "attn", {DType::kF32, DType::kBF16});
  // gate f32 only: the sigmoid input is never pre-rounded.
  api::CheckFp4InputLike(c, ctx, gate, "gate", {DType::kF32}, attn, "attn", /*same_dtype=*/false);
  c.Require("attn.k_multiple_of_16", attn.shape[1] % 16 == 0,
            "K (attn's inner dim) must be a multiple of 16, got " + attn.Describe());
  api::CheckFp4Outputs(c, ctx, out_packed, out_scale, attn.shape[0], attn.shape[1], gsi, layout,
                       {{attn, "attn"}, {gate, "gate"}});
  GetKernel<kernel::Fp4QuantBinaryFn>("sigmoid_gate_fp4_quant", ctx.backend)(ctx, out_packed, out_scale,
                                                                             attn, gate, gsi, layout);
}

}  // namespace vt
