// sigmoid_gate_bf16: Qwen3-Next attention's output gate (qwen3_next.py),
// attn * torch.sigmoid(gate), stored to bf16.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_sigmoid_gate_bf16(const Input& in) {
  return {{"out", Out(Flat(in, "attn") * Sigmoid(Flat(in, "gate")))}};
}

}  // namespace vt::torchref
