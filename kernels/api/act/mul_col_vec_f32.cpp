#include "api/check.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void MulColVecF32(const ExecContext& ctx, const Tensor& x, const Tensor& col) {
  const api::Checker c("mul_col_vec_f32");
  c.Operand(ctx, x, "x");
  c.Rank(x, "x", 2);
  c.DType(x, "x", {DType::kF32, DType::kBF16});
  c.RowStrided(x, "x");
  c.Operand(ctx, col, "col");
  c.Rank(col, "col", 1);
  c.DType(col, "col", {DType::kF32});
  c.Contiguous(col, "col");
  c.Shape(col, "col", {x.shape[1]});
  c.NoOverlap(x, "x", col, "col");
  GetKernel<kernel::InPlaceColFn>("mul_col_vec_f32", ctx.backend)(ctx, x, col);
}

}  // namespace vt
