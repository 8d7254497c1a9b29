#include "api/act/act_checks.h"

#include "api/kernel_types.h"
#include "vt/registry.h"

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
  CheckSameShapeOutput(c, ctx, out, x);
}

void CheckSameShapeOutput(const Checker& c, const ExecContext& ctx, const Tensor& out, const Tensor& x) {
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.SameShape(out, "out", x, "x");
  c.Contiguous(out, "out");
  c.NoOverlap(out, "out", x, "x");
}

void CheckFlatOperand(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                      void (Checker::*dtype)(const Tensor&, const char*) const) {
  c.Operand(ctx, t, name);
  (c.*dtype)(t, name);
  c.Contiguous(t, name);
}

void CheckFlatOperand(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                      std::initializer_list<DType> allowed) {
  c.Operand(ctx, t, name);
  c.DType(t, name, allowed);
  c.Contiguous(t, name);
}

void CheckFlatOutput(const Checker& c, const Tensor& out, std::initializer_list<Named> inputs) {
  for (const Named& in : inputs) c.SameNumel(in.t, in.name, out, "out");
  for (const Named& in : inputs) c.NoOverlap(out, "out", in.t, in.name);
}

void RunGlu(const char* op, const ExecContext& ctx, const Tensor& out, const Tensor& x) {
  const Checker c(op);
  CheckGluOperands(c, ctx, out, x);
  GetKernel<kernel::UnaryFn>(op, ctx.backend)(ctx, out, x);
}

}  // namespace vt::api
