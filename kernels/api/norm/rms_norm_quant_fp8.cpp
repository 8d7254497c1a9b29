#include "api/check.h"
#include "api/kernel_types.h"
#include "api/norm/norm_checks.h"
#include "vt/registry.h"

namespace vt {

void RmsNormQuantFp8(const ExecContext& ctx, const Tensor& out_fp8, const Tensor* out_bf16,
                     const Tensor& x, const Tensor& weight, const RmsNormArgs& args,
                     const Tensor* residual, float input_scale) {
  const api::Checker c("rms_norm_quant_fp8");
  api::CheckRmsNormInputs(c, ctx, x, weight, args.eps, residual);
  c.PositiveFinite(input_scale, "input_scale");
  c.Operand(ctx, out_fp8, "out_fp8");
  c.DType(out_fp8, "out_fp8", {DType::kU8});
  c.SameShape(out_fp8, "out_fp8", x, "x");
  c.Contiguous(out_fp8, "out_fp8");
  std::vector<std::pair<const Tensor*, const char*>> written = {{&out_fp8, "out_fp8"}};
  if (out_bf16 != nullptr) {
    c.Operand(ctx, *out_bf16, "out_bf16");
    c.DType(*out_bf16, "out_bf16", {DType::kBF16});
    c.SameShape(*out_bf16, "out_bf16", x, "x");
    c.Contiguous(*out_bf16, "out_bf16");
    written.push_back({out_bf16, "out_bf16"});
  }
  for (const auto& [t, name] : written) {
    c.NoOverlap(*t, name, x, "x");
    c.NoOverlap(*t, name, weight, "weight");
    if (residual != nullptr) c.NoOverlap(*t, name, *residual, "residual");
  }
  if (out_bf16 != nullptr) c.NoOverlap(out_fp8, "out_fp8", *out_bf16, "out_bf16");
  GetKernel<kernel::RmsNormQuantFp8Fn>("rms_norm_quant_fp8", ctx.backend)(
      ctx, out_fp8, out_bf16, x, weight, args, residual, input_scale);
}

}  // namespace vt
