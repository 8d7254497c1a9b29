// torch reference: attention (dense GQA softmax attention over one packed
// sequence; vLLM tests/kernels/utils.py ref_masked_attention, torch SDPA with
// is_causal / enable_gqa): softmax(q k^T * scale, causal mask) v in float64.
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

// The three CUDA-variant names register attention's CPU kernel and take the
// same arguments: one reference, restated once.
Result AttentionReference(const Input& in) {
  const at::Tensor q = Load(in, "query"), k = Load(in, "key"), v = Load(in, "value");
  const int64_t t = q.size(0);
  at::Tensor visible = at::ones({t, t}, at::kBool);
  if (in.Flag("causal")) visible = at::tril(visible);  // query i sees keys j <= i
  return {{"out", Out(seq::MaskedAttention(q, k, v, in.F32("scale"), visible))}};
}

Result Ref_attention(const Input& in) { return AttentionReference(in); }

}  // namespace vt::torchref
