// shared_expert_gate after Qwen2MoeSparseMoeBlock (qwen2_moe.py):
// F.sigmoid(shared_expert_gate(x)) * shared_out - one gate logit per token
// scaling that token's row; the op receives the logits [T] or [T,1] and the
// shared expert's output as T rows of H.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_shared_expert_gate(const Input& in) {
  const int64_t t = in.Get("out").shape[0], h = in.Get("out").shape[1];
  const at::Tensor sd = Load(in, "sd").reshape({t, h});
  const at::Tensor gl = Load(in, "gl").reshape({t, 1});
  return {{"out", Out(Sigmoid(gl) * sd)}};
}

}  // namespace vt::torchref
