// Validation shared by the activation-family API functions (and, for the
// same-shape output rule, by the norm family).
#pragma once

#include <initializer_list>

#include "api/check.h"

namespace vt::api {

// x [T,2D] F contiguous; out [T,D] O contiguous; no overlap.
void CheckGluOperands(const Checker& c, const ExecContext& ctx, const Tensor& out,
                      const Tensor& x);

// x F contiguous; out O contiguous with x's exact shape; no overlap.
void CheckSameShapeUnary(const Checker& c, const ExecContext& ctx, const Tensor& out,
                         const Tensor& x);

// out O contiguous with x's exact shape, not overlapping x (the output of
// every same-shape op: mul_scalar, soft_cap, l2_norm, the gated norms).
void CheckSameShapeOutput(const Checker& c, const ExecContext& ctx, const Tensor& out, const Tensor& x);

// An operand of a flat elementwise op (its shape is free): a well-formed
// contiguous view whose dtype `dtype` checks (&Checker::FloatIn / FloatOut)
// or is one of `allowed`.
void CheckFlatOperand(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                      void (Checker::*dtype)(const Tensor&, const char*) const);
void CheckFlatOperand(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                      std::initializer_list<DType> allowed);

// out against the inputs of a flat elementwise op, in order: each input has
// out's element count, then out overlaps none of them.
struct Named {
  const Tensor& t;
  const char* name;
};
void CheckFlatOutput(const Checker& c, const Tensor& out, std::initializer_list<Named> inputs);

// A gated linear unit's API function: CheckGluOperands, then op's kernel.
void RunGlu(const char* op, const ExecContext& ctx, const Tensor& out, const Tensor& x);

}  // namespace vt::api
