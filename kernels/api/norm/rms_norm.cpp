#include "api/check.h"
#include "api/kernel_types.h"
#include "api/norm/norm_checks.h"
#include "vt/registry.h"

namespace vt {

void RmsNorm(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
             const RmsNormArgs& args, const Tensor* residual) {
  const api::Checker c("rms_norm");
  api::CheckRmsNormInputs(c, ctx, x, weight, args.eps, residual);
  api::CheckRmsNormOutput(c, ctx, out, x, weight, residual);
  GetKernel<kernel::RmsNormFn>("rms_norm", ctx.backend)(ctx, out, x, weight, args, residual);
}

}  // namespace vt
