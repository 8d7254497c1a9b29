#include "api/act/act_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void MoeRelu2(const ExecContext& ctx, const Tensor& out, const Tensor& x) {
  const api::Checker c("moe_relu2");
  api::CheckFlatOperand(c, ctx, x, "x", &api::Checker::FloatIn);
  api::CheckFlatOperand(c, ctx, out, "out", &api::Checker::FloatOut);
  api::CheckFlatOutput(c, out, {{x, "x"}});
  GetKernel<kernel::UnaryFn>("moe_relu2", ctx.backend)(ctx, out, x);
}

}  // namespace vt
