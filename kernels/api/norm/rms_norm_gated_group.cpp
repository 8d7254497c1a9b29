#include "api/act/act_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void RmsNormGatedGroup(const ExecContext& ctx, const Tensor& out, const Tensor& x,
                       const Tensor& gate, const Tensor* weight,
                       const RmsNormGatedGroupArgs& args) {
  const api::Checker c("rms_norm_gated_group");
  c.Require("range(tp_world_size)", args.tp_world_size == 1, "tp_world_size must be 1 (tensor-parallel groups are not "
                                     "implemented), got " + std::to_string(args.tp_world_size));
  c.Operand(ctx, x, "x");
  c.RankIn(x, "x", 2, 3);
  c.FloatIn(x, "x");
  c.Contiguous(x, "x");
  const int64_t hidden = x.shape[x.rank - 1];
  c.Require("x.inner_nonzero", hidden > 0, "hidden = x's last dim must be > 0");
  c.Require("range(n_groups)", args.n_groups >= 1, "n_groups must be >= 1, got " + std::to_string(args.n_groups));
  c.Require("n_groups.divides_hidden", hidden % args.n_groups == 0, "n_groups must divide hidden (" +
                                             std::to_string(hidden) + "), got " +
                                             std::to_string(args.n_groups));
  c.PositiveFinite(args.eps, "eps");
  c.Operand(ctx, gate, "gate");
  c.FloatIn(gate, "gate");
  c.SameShape(gate, "gate", x, "x");
  c.Contiguous(gate, "gate");
  api::CheckSameShapeOutput(c, ctx, out, x);
  c.NoOverlap(out, "out", gate, "gate");
  if (weight != nullptr) {
    c.Operand(ctx, *weight, "weight");
    c.Rank(*weight, "weight", 1);
    c.FloatIn(*weight, "weight");
    c.Contiguous(*weight, "weight");
    c.Shape(*weight, "weight", {hidden});
    c.NoOverlap(out, "out", *weight, "weight");
  }
  GetKernel<kernel::RmsNormGatedGroupFn>("rms_norm_gated_group", ctx.backend)(ctx, out, x, gate,
                                                                              weight, args);
}

}  // namespace vt
