#include "api/act/act_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void SiluAndMul(const ExecContext& ctx, const Tensor& out, const Tensor& x) {
  const api::Checker c("silu_and_mul");
  api::CheckGluOperands(c, ctx, out, x);
  GetKernel<kernel::UnaryFn>("silu_and_mul", ctx.backend)(ctx, out, x);
}

}  // namespace vt
