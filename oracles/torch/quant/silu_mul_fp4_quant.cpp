// silu_mul_fp4_quant after vLLM's fused silu_and_mul_nvfp4_quant, composed as
// its test's reference (test_silu_mul_nvfp4_quant.py): SiluAndMul on
// [gate | up], stored to bf16, then ref_nvfp4_quant (fp4_ref.h).
#include "oracles/torch/quant/fp4_ref.h"

namespace vt::torchref {

Result Ref_silu_mul_fp4_quant(const Input& in) {
  const at::Tensor act = RoundTo(Silu(Load(in, "gate")) * Load(in, "up"), vt::DType::kBF16);
  return fp4::Quantize(in, act);
}

}  // namespace vt::torchref
