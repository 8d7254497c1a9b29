// attn_gate_split after Qwen3-Next attention (qwen3_next.py): q_proj's output
// viewed per head as [q (Dh) | gate (Dh)] and torch.chunk'ed in two.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_attn_gate_split(const Input& in) {
  const auto& q = in.Get("q_out").shape;  // [T, Hq, Dh]
  const std::vector<at::Tensor> halves = Load(in, "qgate").view({q[0], q[1], 2 * q[2]}).chunk(2, -1);
  return {{"q_out", Out(halves[0])}, {"gate_out", Out(halves[1])}};
}

}  // namespace vt::torchref
