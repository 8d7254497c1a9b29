#include "api/check.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void MoeSiluMul(const ExecContext& ctx, const Tensor& out, const Tensor& gate, const Tensor& up) {
  const api::Checker c("moe_silu_mul");
  c.Operand(ctx, gate, "gate");
  c.FloatIn(gate, "gate");
  c.Contiguous(gate, "gate");
  c.Operand(ctx, up, "up");
  c.FloatIn(up, "up");
  c.Contiguous(up, "up");
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.Contiguous(out, "out");
  c.SameNumel(gate, "gate", out, "out");
  c.SameNumel(up, "up", out, "out");
  c.NoOverlap(out, "out", gate, "gate");
  c.NoOverlap(out, "out", up, "up");
  GetKernel<kernel::BinaryFn>("moe_silu_mul", ctx.backend)(ctx, out, gate, up);
}

}  // namespace vt
