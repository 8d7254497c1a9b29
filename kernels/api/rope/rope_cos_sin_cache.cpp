#include "api/kernel_types.h"
#include "api/rope/rope_checks.h"
#include "vt/registry.h"

namespace vt {

void RopeCosSinCache(const ExecContext& ctx, const Tensor& cos_sin, const Tensor& positions,
                     const RopeArgs& args) {
  const api::Checker c("rope_cos_sin_cache");
  c.Operand(ctx, cos_sin, "cos_sin");
  c.Rank(cos_sin, "cos_sin", 2);
  c.DType(cos_sin, "cos_sin", {DType::kF32});
  c.Contiguous(cos_sin, "cos_sin");
  api::CheckTokenPositions(c, ctx, positions, cos_sin.shape[0]);
  c.Require("cos_sin.shape", cos_sin.shape[1] == args.rotary_dim,
            "cos_sin must be [T, rotary_dim = " + std::to_string(args.rotary_dim) + "], got " +
                cos_sin.Describe());
  api::CheckRotaryDim(c, args.rotary_dim, cos_sin.shape[1]);  // even and > 0
  api::CheckFrequencyArgs(c, args);
  c.NoOverlap(cos_sin, "cos_sin", positions, "positions");
  GetKernel<kernel::RopeCosSinCacheFn>("rope_cos_sin_cache", ctx.backend)(ctx, cos_sin, positions, args);
}

}  // namespace vt
