#include "api/check.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void MoeCombine(const ExecContext& ctx, const Tensor& out, const Tensor& expert_out,
                const Tensor& weights, const Tensor* shared, float routed_scale) {
  const api::Checker c("moe_combine");
  c.Operand(ctx, expert_out, "expert_out");
  c.Rank(expert_out, "expert_out", 3);
  c.FloatIn(expert_out, "expert_out");
  c.Contiguous(expert_out, "expert_out");
  const int64_t t = expert_out.shape[0], k = expert_out.shape[1], h = expert_out.shape[2];
  c.Operand(ctx, weights, "weights");
  c.DType(weights, "weights", {DType::kF32});
  c.Shape(weights, "weights", {t, k});
  c.Contiguous(weights, "weights");
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.Shape(out, "out", {t, h});
  c.Contiguous(out, "out");
  c.Finite(routed_scale, "routed_scale");
  c.NoOverlap(out, "out", expert_out, "expert_out");
  c.NoOverlap(out, "out", weights, "weights");
  if (shared != nullptr) {
    c.Operand(ctx, *shared, "shared");
    c.FloatIn(*shared, "shared");
    c.Shape(*shared, "shared", {t, h});
    c.Contiguous(*shared, "shared");
    c.NoOverlap(out, "out", *shared, "shared");
  }
  GetKernel<kernel::MoeCombineFn>("moe_combine", ctx.backend)(ctx, out, expert_out, weights, shared,
                                                              routed_scale);
}

}  // namespace vt
