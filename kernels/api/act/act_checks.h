// Validation shared by the activation-family API functions.
#pragma once

#include "api/check.h"

namespace vt::api {

// x [T,2D] F contiguous; out [T,D] O contiguous; no overlap.
void CheckGluOperands(const Checker& c, const ExecContext& ctx, const Tensor& out,
                      const Tensor& x);

// x F contiguous; out O contiguous with x's exact shape; no overlap.
void CheckSameShapeUnary(const Checker& c, const ExecContext& ctx, const Tensor& out,
                         const Tensor& x);

}  // namespace vt::api
