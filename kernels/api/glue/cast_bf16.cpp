#include "api/check.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void CastBf16(const ExecContext& ctx, const Tensor& out, const Tensor& in) {
  const api::Checker c("cast_bf16");
  c.Operand(ctx, in, "in");
  c.DType(in, "in", {DType::kF32});
  // Read through its strides (H-4): packed inner dims, outer strides >= span.
  c.RowStrided(in, "in");
  c.Operand(ctx, out, "out");
  c.DType(out, "out", {DType::kBF16});
  c.Contiguous(out, "out");
  c.SameNumel(out, "out", in, "in");
  c.NoOverlap(out, "out", in, "in");
  GetKernel<kernel::UnaryFn>("cast_bf16", ctx.backend)(ctx, out, in);
}

}  // namespace vt
