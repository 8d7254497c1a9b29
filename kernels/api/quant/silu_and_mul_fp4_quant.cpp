#include "api/kernel_types.h"
#include "api/quant/quant_checks.h"
#include "vt/registry.h"

namespace vt {

void SiluAndMulFp4Quant(const ExecContext& ctx, const Tensor& out_packed, const Tensor& out_scale,
                        const Tensor& gate_up, float gsi, Fp4ScaleLayout layout) {
  const api::Checker c("silu_and_mul_fp4_quant");
  api::CheckFp4Input(c, ctx, gate_up, "gate_up", {DType::kF32, DType::kBF16});
  c.Require("gate_up.even_inner", gate_up.shape[1] % 2 == 0,
            "gate_up inner dim must be even ([M, 2I]), got " + gate_up.Describe());
  const int64_t i = gate_up.shape[1] / 2;
  c.Require("gate_up.i_multiple_of_16", i % 16 == 0,
            "I (half of gate_up's inner dim) must be a multiple of 16, got " + gate_up.Describe());
  api::CheckFp4Outputs(c, ctx, out_packed, out_scale, gate_up.shape[0], i, gsi, layout, {{gate_up, "gate_up"}});
  GetKernel<kernel::Fp4QuantFn>("silu_and_mul_fp4_quant", ctx.backend)(ctx, out_packed, out_scale,
                                                                      gate_up, gsi, layout);
}

}  // namespace vt
