#include "api/act/act_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void L2Norm(const ExecContext& ctx, const Tensor& out, const Tensor& x, const L2NormArgs& args) {
  const api::Checker c("l2_norm");
  c.Operand(ctx, x, "x");
  c.RankIn(x, "x", 2, 3);
  c.FloatIn(x, "x");
  c.Contiguous(x, "x");
  c.Require("x.inner_nonzero", x.shape[x.rank - 1] > 0, "D = x's last dim must be > 0");
  c.PositiveFinite(args.eps, "eps");
  api::CheckSameShapeOutput(c, ctx, out, x);
  GetKernel<kernel::L2NormFn>("l2_norm", ctx.backend)(ctx, out, x, args);
}

}  // namespace vt
