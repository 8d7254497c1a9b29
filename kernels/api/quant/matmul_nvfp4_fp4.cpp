#include "api/kernel_types.h"
#include "api/check.h"
#include "vt/registry.h"

namespace vt {

void MatmulNvfp4Fp4(const ExecContext& ctx, const Tensor& out, const Tensor& a_packed,
                    const Tensor& a_scale, const Tensor& b_packed, const Tensor& b_scale,
                    float alpha) {
  const api::Checker c("matmul_nvfp4_fp4");
  c.Operand(ctx, a_packed, "a_packed");
  c.Rank(a_packed, "a_packed", 2);
  c.DType(a_packed, "a_packed", {DType::kU8});
  c.Contiguous(a_packed, "a_packed");
  const int64_t m = a_packed.shape[0], k = 2 * a_packed.shape[1];
  c.Require("a_packed.k_multiple_of_16", k % 16 == 0,
            "K (2 * a_packed's inner dim) must be a multiple of 16, got " + a_packed.Describe());
  c.Operand(ctx, a_scale, "a_scale");
  c.DType(a_scale, "a_scale", {DType::kU8});
  c.Shape(a_scale, "a_scale", {m, k / 16});  // linear layout only
  c.Contiguous(a_scale, "a_scale");
  c.Operand(ctx, b_packed, "b_packed");
  c.Rank(b_packed, "b_packed", 2);
  c.DType(b_packed, "b_packed", {DType::kU8});
  const int64_t n = b_packed.shape[0];
  c.Shape(b_packed, "b_packed", {n, k / 2});
  c.Contiguous(b_packed, "b_packed");
  c.Operand(ctx, b_scale, "b_scale");
  c.DType(b_scale, "b_scale", {DType::kU8});
  c.Shape(b_scale, "b_scale", {n, k / 16});
  c.Contiguous(b_scale, "b_scale");
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.Shape(out, "out", {m, n});
  c.Contiguous(out, "out");
  c.Finite(alpha, "alpha");
  c.NoOverlap(out, "out", a_packed, "a_packed");
  c.NoOverlap(out, "out", a_scale, "a_scale");
  c.NoOverlap(out, "out", b_packed, "b_packed");
  c.NoOverlap(out, "out", b_scale, "b_scale");
  GetKernel<kernel::MatmulNvfp4Fp4Fn>("matmul_nvfp4_fp4", ctx.backend)(ctx, out, a_packed, a_scale,
                                                                      b_packed, b_scale, alpha);
}

}  // namespace vt
