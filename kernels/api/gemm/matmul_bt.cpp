// matmul_bt validation (op-contracts 3.1 MatmulBT), then the backend kernel.
// b is the one operand in the kernel set that honours elem_kn_repacked: its
// shape still reads [N,K] and it must be a contiguous float tensor like any
// other weight (the kernel set has no block-quantized dtype to refuse here).
#include "api/check.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void MatmulBT(const ExecContext& ctx, const Tensor& out, const Tensor& a, const Tensor& b) {
  const api::Checker c("matmul_bt");
  c.Operand(ctx, a, "a");
  c.Rank(a, "a", 2);
  c.FloatIn(a, "a");
  c.RowStrided(a, "a");
  c.OperandKnRepackable(ctx, b, "b");
  c.Rank(b, "b", 2);
  c.FloatIn(b, "b");
  c.Contiguous(b, "b");
  c.Require("b.inner_dims", b.shape[1] == a.shape[1],
            "inner dims mismatch (b is [N,K]): b.shape[1] must be K = a.shape[1] = " +
                std::to_string(a.shape[1]) + ", got b " + b.Describe());
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.Shape(out, "out", {a.shape[0], b.shape[0]});
  c.Contiguous(out, "out");
  c.NoOverlap(out, "out", a, "a");
  c.NoOverlap(out, "out", b, "b");
  GetKernel<kernel::GemmFn>("matmul_bt", ctx.backend)(ctx, out, a, b);
}

}  // namespace vt
