// silu_and_mul_fp4_quant: SiluAndMul.forward_native on gate_up [M, 2I] (gate
// half first), stored to bf16, then ref_nvfp4_quant (fp4_ref.h).
#include "oracles/torch/quant/fp4_ref.h"

namespace vt::torchref {

Result Ref_silu_and_mul_fp4_quant(const Input& in) {
  const at::Tensor x = Load(in, "gate_up");
  const int64_t i = x.size(1) / 2;
  return fp4::Quantize(in, RoundTo(Silu(x.narrow(1, 0, i)) * x.narrow(1, i, i), vt::DType::kBF16));
}

}  // namespace vt::torchref
