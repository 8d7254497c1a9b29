// torch reference: kda_gated_delta_rule (fla ops/kda fused_recurrent_kda;
// plain-torch form: fla ops/kda/naive.py naive_recurrent_kda, restated in
// vLLM's [Hv, Dv, Dk] state layout): the gated delta rule with one log decay
// per key channel, S[:, i] *= exp(g[i]), over each sequence of the varlen
// batch from state[s] to its final state. GQA by repeat_interleave; q scaled
// by `scale`; q and k used as given (no normalisation inside this op).
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

// Shared with kda_chunk_prefill's reference: the recurrence given the gate.
Result KdaRecurrence(const Input& in, const at::Tensor& g) {
  const at::Tensor v = Load(in, "v"), beta = Load(in, "beta");
  const int64_t group = v.size(1) / in.Get("q").shape[1];
  const at::Tensor q = seq::ExpandHeads(Load(in, "q"), group) * in.F32("scale");
  const at::Tensor k = seq::ExpandHeads(Load(in, "k"), group);
  at::Tensor state = Load(in, "state");
  const std::vector<int64_t> qsl = seq::Ints(in, "query_start_loc");
  at::Tensor out = at::zeros_like(v);
  for (size_t s = 0; s + 1 < qsl.size(); ++s) {
    at::Tensor st = state[static_cast<int64_t>(s)];
    for (int64_t t = qsl[s]; t < qsl[s + 1]; ++t) {
      out[t].copy_(seq::DeltaRuleToken(st, q[t], k[t], v[t], g[t].unsqueeze(1), beta[t]));  // g [Hv, 1, Dk]
    }
  }
  return {{"out", Out(out)}, {"state", Out(state)}};
}

Result Ref_kda_gated_delta_rule(const Input& in) { return KdaRecurrence(in, Load(in, "g")); }

}  // namespace vt::torchref
