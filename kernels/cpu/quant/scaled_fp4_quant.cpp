// scaled_fp4_quant CPU kernel (vLLM scaled_fp4_quant / ref_nvfp4_quant): the
// shared quantizer (fp4_quant_rows.h) on x. Split: rows.
#include "api/kernel_types.h"
#include "cpu/quant/fp4_quant_rows.h"
#include "vt/registry.h"

namespace vt::cpu {
namespace {

void ScaledFp4QuantCpu(const ExecContext& ctx, const Tensor& out_packed, const Tensor& out_scale,
                       const Tensor& x, float gsi, Fp4ScaleLayout layout) {
  fp4::QuantizeFp4(ctx, "scaled_fp4_quant", out_packed, out_scale, x, gsi, layout);
}

}  // namespace

void Register_scaled_fp4_quant() {
  RegisterTyped<kernel::Fp4QuantFn>("scaled_fp4_quant", Backend::kCPU, &ScaledFp4QuantCpu);
}

}  // namespace vt::cpu
