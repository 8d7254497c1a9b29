// sigmoid_gate_fp4_quant: the Inductor fusion of Qwen3-Next's output gate
// with o_proj's quant, composed: (attn * torch.sigmoid(gate)).to(bf16), then
// ref_nvfp4_quant (fp4_ref.h).
#include "oracles/torch/quant/fp4_ref.h"

namespace vt::torchref {

Result Ref_sigmoid_gate_fp4_quant(const Input& in) {
  return fp4::Quantize(in, RoundTo(Load(in, "attn") * Sigmoid(Load(in, "gate")), vt::DType::kBF16));
}

}  // namespace vt::torchref
