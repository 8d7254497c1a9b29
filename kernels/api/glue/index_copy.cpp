#include <vector>

#include "api/check.h"
#include "api/glue/index_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void IndexCopy(const ExecContext& ctx, const Tensor& out, const Tensor& in, const Tensor& idx) {
  const api::Checker c("index_copy");
  c.Operand(ctx, out, "out");
  c.RowStrided(out, "out");  // the row-addressable side (in place): rows may be padded
  c.Operand(ctx, idx, "idx");
  c.Rank(idx, "idx", 1);
  c.DType(idx, "idx", {DType::kI32});
  c.Contiguous(idx, "idx");
  c.Operand(ctx, in, "in");
  c.SameDType(in, "in", out, "out");  // any dtype: rows are moved as bytes
  std::vector<int64_t> shape(out.shape, out.shape + out.rank);
  shape[0] = idx.shape[0];
  c.Shape(in, "in", shape);
  c.Contiguous(in, "in");
  c.NoOverlap(out, "out", in, "in");
  c.NoOverlap(out, "out", idx, "idx");
  // Repeated indices are legal: the last occurrence wins (docs/ops/glue.md).
  api::RequireIndicesInRange(c, ctx, "idx.range", idx, "idx", out.shape[0], "rows of out");
  GetKernel<kernel::GatherFn>("index_copy", ctx.backend)(ctx, out, in, idx);
}

}  // namespace vt
