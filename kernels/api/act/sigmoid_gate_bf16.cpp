#include "api/act/act_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void SigmoidGateBf16(const ExecContext& ctx, const Tensor& out, const Tensor& attn,
                     const Tensor& gate) {
  const api::Checker c("sigmoid_gate_bf16");
  api::CheckFlatOperand(c, ctx, attn, "attn", {DType::kF32, DType::kBF16});
  api::CheckFlatOperand(c, ctx, gate, "gate", {DType::kF32});  // the sigmoid input is never pre-rounded
  api::CheckFlatOperand(c, ctx, out, "out", {DType::kBF16});
  api::CheckFlatOutput(c, out, {{attn, "attn"}, {gate, "gate"}});
  GetKernel<kernel::BinaryFn>("sigmoid_gate_bf16", ctx.backend)(ctx, out, attn, gate);
}

}  // namespace vt
