#include <vector>

#include "api/check.h"
#include "api/glue/index_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void IndexSelect(const ExecContext& ctx, const Tensor& out, const Tensor& in, const Tensor& idx) {
  const api::Checker c("index_select");
  c.Operand(ctx, in, "in");
  c.RowStrided(in, "in");  // the row-addressable side: rows may be padded
  c.Operand(ctx, idx, "idx");
  c.Rank(idx, "idx", 1);
  c.DType(idx, "idx", {DType::kI32});
  c.Contiguous(idx, "idx");  // read flat (the seed did not check it: H-4)
  c.Operand(ctx, out, "out");
  c.SameDType(out, "out", in, "in");  // any dtype: rows are moved as bytes
  std::vector<int64_t> shape(in.shape, in.shape + in.rank);
  shape[0] = idx.shape[0];
  c.Shape(out, "out", shape);
  c.Contiguous(out, "out");
  c.NoOverlap(out, "out", in, "in");
  c.NoOverlap(out, "out", idx, "idx");
  api::RequireIndicesInRange(c, ctx, "idx.range", idx, "idx", in.shape[0], "rows of in");
  GetKernel<kernel::GatherFn>("index_select", ctx.backend)(ctx, out, in, idx);
}

}  // namespace vt
