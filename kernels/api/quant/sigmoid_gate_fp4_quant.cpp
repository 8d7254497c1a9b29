#include "api/kernel_types.h"
#include "api/quant/quant_checks.h"
#include "vt/registry.h"

namespace vt {

void SigmoidGateFp4Quant(const ExecContext& ctx, const Tensor& out_packed, const Tensor& out_scale,
                         const Tensor& attn, const Tensor& gate, float gsi, Fp4ScaleLayout layout) {
  const api::Checker c("sigmoid_gate_fp4_quant");
  c.Operand(ctx, attn, "attn");
  c.Rank(attn, "attn", 2);
  c.DType(attn, "attn", {DType::kF32, DType::kBF16});
  c.Contiguous(attn, "attn");
  c.Operand(ctx, gate, "gate");
  c.DType(gate, "gate", {DType::kF32});  // the sigmoid input is never pre-rounded
  c.Shape(gate, "gate", {attn.shape[0], attn.shape[1]});
  c.Contiguous(gate, "gate");
  c.Require("attn.k_multiple_of_16", attn.shape[1] % 16 == 0,
            "K (attn's inner dim) must be a multiple of 16, got " + attn.Describe());
  api::CheckFp4Outputs(c, ctx, out_packed, out_scale, attn.shape[0], attn.shape[1], gsi, layout);
  api::CheckFp4Disjoint(c, out_packed, out_scale, attn, "attn");
  api::CheckFp4Disjoint(c, out_packed, out_scale, gate, "gate");
  GetKernel<kernel::Fp4QuantBinaryFn>("sigmoid_gate_fp4_quant", ctx.backend)(ctx, out_packed, out_scale,
                                                                             attn, gate, gsi, layout);
}

}  // namespace vt
