#include "api/act/act_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void SoftCap(const ExecContext& ctx, const Tensor& out, const Tensor& x, double cap) {
  const api::Checker c("soft_cap");
  api::CheckSameShapeUnary(c, ctx, out, x);
  // Checked as the f32 the kernel divides by: a positive double below the f32
  // range would become 0 and divide by zero.
  c.PositiveFinite(static_cast<float>(cap), "cap (as f32)");
  GetKernel<kernel::ScalarUnaryFn>("soft_cap", ctx.backend)(ctx, out, x, static_cast<float>(cap));
}

}  // namespace vt
