#include "api/norm/norm_checks.h"

namespace vt::api {

void CheckRmsNormInputs(const Checker& c, const ExecContext& ctx, const Tensor& x,
                        const Tensor& weight, float eps, const Tensor* residual) {
  c.Operand(ctx, x, "x");
  c.Rank(x, "x", 2);
  c.FloatIn(x, "x");
  c.Contiguous(x, "x");
  c.Operand(ctx, weight, "weight");
  c.Rank(weight, "weight", 1);
  c.FloatIn(weight, "weight");
  c.Contiguous(weight, "weight");
  c.Require("x.inner_nonzero", x.shape[1] > 0, "H = x.shape[1] must be > 0 (mean over an empty row)");
  c.Shape(weight, "weight", {x.shape[1]});
  c.PositiveFinite(eps, "eps");
  if (residual != nullptr) {
    c.Operand(ctx, *residual, "residual");
    c.DType(*residual, "residual", {vt::DType::kF32, vt::DType::kBF16});
    c.SameShape(*residual, "residual", x, "x");
    c.Contiguous(*residual, "residual");
    c.NoOverlap(*residual, "residual", x, "x");
    c.NoOverlap(*residual, "residual", weight, "weight");
  }
}

void CheckRmsNormOutput(const Checker& c, const ExecContext& ctx, const Tensor& out, const Tensor& x,
                        const Tensor& weight, const Tensor* residual) {
  CheckSameShapeOutput(c, ctx, out, x);
  c.NoOverlap(out, "out", weight, "weight");
  if (residual != nullptr) c.NoOverlap(out, "out", *residual, "residual");
}

void CheckGatedNormInputs(const Checker& c, const ExecContext& ctx, const Tensor& x,
                          const Tensor& gate, const Tensor& weight, float eps) {
  c.Operand(ctx, x, "x");
  c.RankIn(x, "x", 2, 3);
  c.FloatIn(x, "x");
  c.Contiguous(x, "x");
  c.Require("x.inner_nonzero", x.shape[x.rank - 1] > 0, "D = x's last dim must be > 0");
  c.Operand(ctx, gate, "gate");
  c.SameShape(gate, "gate", x, "x");
  c.FloatIn(gate, "gate");
  c.RowStrided(gate, "gate");
  if (gate.rank == 3) {
    // The kernel walks (token, head) with the head stride D: only the token
    // stride may be padded. An empty gate addresses nothing: any stride.
    c.Require("gate.head_stride", gate.Numel() == 0 || gate.stride[1] == gate.shape[2],
              "gate head stride must equal D (only the token stride may be padded), got " +
                  gate.Describe());
  }
  c.Operand(ctx, weight, "weight");
  c.Rank(weight, "weight", 1);
  c.FloatIn(weight, "weight");
  c.Contiguous(weight, "weight");
  c.Shape(weight, "weight", {x.shape[x.rank - 1]});
  c.PositiveFinite(eps, "eps");
}

}  // namespace vt::api
