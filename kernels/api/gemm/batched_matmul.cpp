// batched_matmul validation (op-contracts 3.1 BatchedMatmul, hazard H-11 for
// out's batches), then the backend kernel.
#include "api/gemm/gemm_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void BatchedMatmul(const ExecContext& ctx, const Tensor& out, const Tensor& a, const Tensor& b) {
  const api::Checker c("batched_matmul");
  c.Operand(ctx, a, "a");
  c.Rank(a, "a", 3);
  c.FloatIn(a, "a");
  api::CheckBatchStrided(c, a, "a");
  c.Operand(ctx, b, "b");
  c.Rank(b, "b", 3);
  c.FloatIn(b, "b");
  c.SameDType(b, "b", a, "a");
  api::CheckBatchStrided(c, b, "b");
  c.Require("b.batch", b.shape[0] == a.shape[0],
            "batch dim mismatch: b.shape[0] must be a.shape[0] = " + std::to_string(a.shape[0]) +
                ", got b " + b.Describe());
  c.Require("b.inner_dims", b.shape[1] == a.shape[2],
            "inner dims mismatch: b must be [G,K,N] with K = a.shape[2] = " + std::to_string(a.shape[2]) +
                ", got b " + b.Describe());
  c.Operand(ctx, out, "out");
  c.Rank(out, "out", 3);
  c.FloatOut(out, "out");
  c.Shape(out, "out", {a.shape[0], a.shape[1], b.shape[2]});
  api::CheckBatchStrided(c, out, "out");
  c.Require("out.elements_disjoint", api::ElementsDisjoint(out),
            "out's batches or rows must not overlap each other, got out " + out.Describe());
  c.NoOverlap(out, "out", a, "a");
  c.NoOverlap(out, "out", b, "b");
  GetKernel<kernel::GemmFn>("batched_matmul", ctx.backend)(ctx, out, a, b);
}

}  // namespace vt
