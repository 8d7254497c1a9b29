// Validation shared by the norm-family API functions.
#pragma once

#include "api/act/act_checks.h"  // CheckSameShapeOutput
#include "api/check.h"
#include "vt/ops_norm.h"

namespace vt::api {

// x [T,H] F contiguous, weight [H] F contiguous, H > 0, eps > 0; optional
// residual [T,H] f32/bf16 contiguous, not overlapping x or weight.
void CheckRmsNormInputs(const Checker& c, const ExecContext& ctx, const Tensor& x,
                        const Tensor& weight, float eps, const Tensor* residual);

// out: O, x's shape, contiguous, overlapping none of x, weight, residual.
void CheckRmsNormOutput(const Checker& c, const ExecContext& ctx, const Tensor& out, const Tensor& x,
                        const Tensor& weight, const Tensor* residual);

// x [R,D] or [T,Hv,D] F contiguous with D > 0; gate of x's shape, F, inner dims
// packed (token stride may be padded); weight [D] F contiguous; eps > 0.
void CheckGatedNormInputs(const Checker& c, const ExecContext& ctx, const Tensor& x,
                          const Tensor& gate, const Tensor& weight, float eps);

}  // namespace vt::api
