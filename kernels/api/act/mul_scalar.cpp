#include "api/act/act_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void MulScalar(const ExecContext& ctx, const Tensor& out, const Tensor& x, double scalar) {
  const api::Checker c("mul_scalar");
  api::CheckSameShapeUnary(c, ctx, out, x);
  // The kernel multiplies by the f32 value of the scalar; a double that is
  // finite but overflows f32 would silently become inf.
  const float s = static_cast<float>(scalar);
  c.Finite(s, "scalar (as f32)");
  GetKernel<kernel::ScalarUnaryFn>("mul_scalar", ctx.backend)(ctx, out, x, s);
}

}  // namespace vt
