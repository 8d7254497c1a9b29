// torch reference: kda_chunk_prefill (fla ops/kda chunk_kda with the gate of
// fused_kda_gate; plain-torch forms: fla ops/kda/gate.py naive_kda_gate, then
// the recurrence of naive_recurrent_kda - upstream's chunked WY form equals it
// up to reduction order):
//   g = -exp(A_log[h]) * softplus(g_raw + dt_bias.view(Hv, Dk))   (threshold 20;
//       no dt_bias when it is empty)
// then kda_gated_delta_rule's recurrence over the one sequence.
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result KdaRecurrence(const Input& in, const at::Tensor& g);

Result Ref_kda_chunk_prefill(const Input& in) {
  at::Tensor x = Load(in, "g_raw");  // [T, Hv, Dk]
  const int64_t hv = x.size(1), dk = x.size(2);
  const at::Tensor bias = Load(in, "dt_bias");
  if (bias.numel() > 0) x = x + bias.view({hv, dk});
  const at::Tensor g = -at::exp(Load(in, "a_log")).view({hv, 1}) * seq::Softplus20(x);
  return KdaRecurrence(in, g);
}

}  // namespace vt::torchref
