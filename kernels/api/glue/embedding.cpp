#include "api/check.h"
#include "api/glue/index_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void Embedding(const ExecContext& ctx, const Tensor& out, const Tensor& table, const Tensor& ids) {
  const api::Checker c("embedding");
  c.Operand(ctx, table, "table");
  c.Rank(table, "table", 2);
  c.FloatIn(table, "table");
  c.Contiguous(table, "table");
  c.Operand(ctx, ids, "ids");
  c.Rank(ids, "ids", 1);
  c.DType(ids, "ids", {DType::kI32, DType::kI64});
  c.Contiguous(ids, "ids");
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.Shape(out, "out", {ids.shape[0], table.shape[1]});
  c.Contiguous(out, "out");
  c.NoOverlap(out, "out", table, "table");
  c.NoOverlap(out, "out", ids, "ids");
  api::RequireIndicesInRange(c, ctx, "ids.range", ids, "ids", table.shape[0], "table rows V");
  GetKernel<kernel::GatherFn>("embedding", ctx.backend)(ctx, out, table, ids);
}

}  // namespace vt
