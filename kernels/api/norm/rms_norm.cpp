#include "api/check.h"
#include "api/kernel_types.h"
#include "api/norm/norm_checks.h"
#include "vt/registry.h"

namespace vt {

void RmsNorm(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
             const RmsNormArgs& args, const Tensor* residual) {
  const api::Checker c("rms_norm");
  api::CheckRmsNormInputs(c, ctx, x, weight, args.eps, residual);
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.SameShape(out, "out", x, "x");
  c.Contiguous(out, "out");
  c.NoOverlap(out, "out", x, "x");
  c.NoOverlap(out, "out", weight, "weight");
  if (residual != nullptr) c.NoOverlap(out, "out", *residual, "residual");
  GetKernel<kernel::RmsNormFn>("rms_norm", ctx.backend)(ctx, out, x, weight, args, residual);
}

}  // namespace vt
