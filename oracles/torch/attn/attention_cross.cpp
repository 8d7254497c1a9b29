// torch reference: attention_cross (torch SDPA with a float attn_mask; vLLM
// tests/kernels/utils.py ref_masked_attention with a custom mask): every query
// sees all S keys, softmax(q k^T * scale + bias) v, the bias [Tq or 1, S]
// broadcast over heads (and over queries when it has one row).
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_attention_cross(const Input& in) {
  const at::Tensor q = Load(in, "query"), k = Load(in, "key"), v = Load(in, "value");
  const at::Tensor visible = at::ones({q.size(0), k.size(0)}, at::kBool);
  const at::Tensor bias = in.Has("bias") ? Load(in, "bias") : at::Tensor();
  return {{"out", Out(seq::MaskedAttention(q, k, v, in.F32("scale"), visible, bias))}};
}

}  // namespace vt::torchref
