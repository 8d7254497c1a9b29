#include "api/check.h"
#include "api/kernel_types.h"
#include "api/norm/norm_checks.h"
#include "vt/registry.h"

namespace vt {

void RmsNormGatedQuantFp8(const ExecContext& ctx, const Tensor& out_fp8, const Tensor& x,
                          const Tensor& gate, const Tensor& weight, const RmsNormGatedArgs& args,
                          float input_scale) {
  const api::Checker c("rms_norm_gated_quant_fp8");
  // The gate gets the full rms_norm_gated checks (hazard H-4: the original
  // validated neither its rank nor its shape nor its strides).
  api::CheckGatedNormInputs(c, ctx, x, gate, weight, args.eps);
  c.SameDType(gate, "gate", x, "x");
  c.SameDType(weight, "weight", x, "x");
  c.PositiveFinite(input_scale, "input_scale");
  c.Operand(ctx, out_fp8, "out_fp8");
  c.DType(out_fp8, "out_fp8", {DType::kU8});
  c.SameShape(out_fp8, "out_fp8", x, "x");
  c.Contiguous(out_fp8, "out_fp8");
  c.NoOverlap(out_fp8, "out_fp8", x, "x");
  c.NoOverlap(out_fp8, "out_fp8", gate, "gate");
  c.NoOverlap(out_fp8, "out_fp8", weight, "weight");
  GetKernel<kernel::RmsNormGatedQuantFp8Fn>("rms_norm_gated_quant_fp8", ctx.backend)(
      ctx, out_fp8, x, gate, weight, args, input_scale);
}

}  // namespace vt
