#include "api/check.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void MoeRelu2(const ExecContext& ctx, const Tensor& out, const Tensor& x) {
  const api::Checker c("moe_relu2");
  c.Operand(ctx, x, "x");
  c.FloatIn(x, "x");
  c.Contiguous(x, "x");
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.Contiguous(out, "out");
  c.SameNumel(x, "x", out, "out");
  c.NoOverlap(out, "out", x, "x");
  GetKernel<kernel::UnaryFn>("moe_relu2", ctx.backend)(ctx, out, x);
}

}  // namespace vt
