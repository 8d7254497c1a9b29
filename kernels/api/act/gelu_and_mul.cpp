#include "api/act/act_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void GeluAndMul(const ExecContext& ctx, const Tensor& out, const Tensor& x) {
  const api::Checker c("gelu_and_mul");
  api::CheckGluOperands(c, ctx, out, x);
  GetKernel<kernel::UnaryFn>("gelu_and_mul", ctx.backend)(ctx, out, x);
}

}  // namespace vt
