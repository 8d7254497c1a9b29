#include "api/kernel_types.h"
#include "api/quant/quant_checks.h"
#include "vt/registry.h"

namespace vt {

void ScaledFp4Quant(const ExecContext& ctx, const Tensor& out_packed, const Tensor& out_scale,
                    const Tensor& x, float gsi, Fp4ScaleLayout layout) {
  const api::Checker c("scaled_fp4_quant");
  api::CheckFp4Input(c, ctx, x, "x", {DType::kF32, DType::kF16, DType::kBF16});
  c.Require("x.k_multiple_of_16", x.shape[1] % 16 == 0,
            "K (x's inner dim) must be a multiple of 16, got " + x.Describe());
  api::CheckFp4Outputs(c, ctx, out_packed, out_scale, x.shape[0], x.shape[1], gsi, layout, {{x, "x"}});
  GetKernel<kernel::Fp4QuantFn>("scaled_fp4_quant", ctx.backend)(ctx, out_packed, out_scale, x, gsi, layout);
}

}  // namespace vt
