#include "api/check.h"
#include "api/kernel_types.h"
#include "api/norm/norm_checks.h"
#include "vt/registry.h"

namespace vt {

void RmsNormGated(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& gate,
                  const Tensor& weight, const RmsNormGatedArgs& args) {
  const api::Checker c("rms_norm_gated");
  api::CheckGatedNormInputs(c, ctx, x, gate, weight, args.eps);
  api::CheckSameShapeOutput(c, ctx, out, x);
  c.NoOverlap(out, "out", gate, "gate");
  c.NoOverlap(out, "out", weight, "weight");
  GetKernel<kernel::RmsNormGatedFn>("rms_norm_gated", ctx.backend)(ctx, out, x, gate, weight,
                                                                     args);
}

}  // namespace vt
