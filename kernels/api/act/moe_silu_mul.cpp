#include "api/act/act_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void MoeSiluMul(const ExecContext& ctx, const Tensor& out, const Tensor& gate, const Tensor& up) {
  const api::Checker c("moe_silu_mul");
  api::CheckFlatOperand(c, ctx, gate, "gate", &api::Checker::FloatIn);
  api::CheckFlatOperand(c, ctx, up, "up", &api::Checker::FloatIn);
  api::CheckFlatOperand(c, ctx, out, "out", &api::Checker::FloatOut);
  api::CheckFlatOutput(c, out, {{gate, "gate"}, {up, "up"}});
  GetKernel<kernel::BinaryFn>("moe_silu_mul", ctx.backend)(ctx, out, gate, up);
}

}  // namespace vt
