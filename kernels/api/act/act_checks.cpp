#include "api/act/act_checks.h"

namespace vt::api {

void CheckGluOperands(const Checker& c, const ExecContext& ctx, const Tensor& out,
                      const Tensor& x) {
  c.Operand(ctx, x, "x");
  c.Rank(x, "x", 2);
  c.FloatIn(x, "x");
  c.Contiguous(x, "x");
  c.Require("x.even_inner", x.shape[1] % 2 == 0, "x inner dim must be even ([T, 2D]), got " + x.Describe());
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.Shape(out, "out", {x.shape[0], x.shape[1] / 2});
  c.Contiguous(out, "out");
  c.NoOverlap(out, "out", x, "x");
}

void CheckSameShapeUnary(const Checker& c, const ExecContext& ctx, const Tensor& out,
                         const Tensor& x) {
  c.Operand(ctx, x, "x");
  c.FloatIn(x, "x");
  c.Contiguous(x, "x");
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.SameShape(out, "out", x, "x");
  c.Contiguous(out, "out");
  c.NoOverlap(out, "out", x, "x");
}

}  // namespace vt::api
