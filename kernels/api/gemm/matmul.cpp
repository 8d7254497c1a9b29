// matmul validation (op-contracts 3.1 Matmul), then the backend kernel.
#include "api/check.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void Matmul(const ExecContext& ctx, const Tensor& out, const Tensor& a, const Tensor& b) {
  const api::Checker c("matmul");
  c.Operand(ctx, a, "a");
  c.Rank(a, "a", 2);
  c.FloatIn(a, "a");
  c.Contiguous(a, "a");
  c.Operand(ctx, b, "b");
  c.Rank(b, "b", 2);
  c.FloatIn(b, "b");
  c.Contiguous(b, "b");
  c.Require("b.inner_dims", b.shape[0] == a.shape[1],
            "inner dims mismatch: b must be [K,N] with K = a.shape[1] = " + std::to_string(a.shape[1]) +
                ", got b " + b.Describe());
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.Shape(out, "out", {a.shape[0], b.shape[1]});
  c.Contiguous(out, "out");
  c.NoOverlap(out, "out", a, "a");
  c.NoOverlap(out, "out", b, "b");
  GetKernel<kernel::GemmFn>("matmul", ctx.backend)(ctx, out, a, b);
}

}  // namespace vt
