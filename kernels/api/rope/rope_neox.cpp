#include "api/kernel_types.h"
#include "api/rope/rope_checks.h"
#include "vt/registry.h"

namespace vt {

void RopeNeox(const ExecContext& ctx, const Tensor& q, const Tensor& k, const Tensor& positions,
              const RopeArgs& args) {
  const api::Checker c("rope_neox");
  c.Operand(ctx, q, "q");
  c.Rank(q, "q", 3);
  c.DType(q, "q", {DType::kF32, DType::kBF16});
  c.Contiguous(q, "q");
  c.Operand(ctx, k, "k");
  c.Rank(k, "k", 3);
  c.SameDType(k, "k", q, "q");
  c.Contiguous(k, "k");
  c.Require("k.shape", k.shape[0] == q.shape[0] && k.shape[2] == q.shape[2],
            "k must be [T, Hk, D] matching q " + q.Describe() + ", got " + k.Describe());
  api::CheckTokenPositions(c, ctx, positions, q.shape[0]);
  api::CheckRotaryDim(c, args.rotary_dim, q.shape[2]);
  api::CheckFrequencyArgs(c, args);
  c.NoOverlap(k, "k", q, "q");
  c.NoOverlap(q, "q", positions, "positions");
  c.NoOverlap(k, "k", positions, "positions");
  GetKernel<kernel::RopeNeoxFn>("rope_neox", ctx.backend)(ctx, q, k, positions, args);
}

}  // namespace vt
