// torch reference: gdn_prefill (fla fused_recurrent_gated_delta_rule over a
// varlen batch; plain-torch form: fla naive_recurrent_gated_delta_rule / vLLM
// mops/cpu recurrent_gated_delta_rule, restated in vLLM's [Hv, Dv, Dk] state
// layout): sequence s (tokens qsl[s] .. qsl[s+1]) runs the gated delta rule
// token by token from state[s], which ends as its final state. GQA: key heads
// repeat_interleave'd to the value heads. q is scaled by `scale`, k is not.
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_gdn_prefill(const Input& in) {
  const at::Tensor v = Load(in, "v"), g = Load(in, "g"), beta = Load(in, "beta");
  const int64_t group = v.size(1) / in.Get("q").shape[1];
  const at::Tensor q = seq::ExpandHeads(Load(in, "q"), group) * in.F32("scale");
  const at::Tensor k = seq::ExpandHeads(Load(in, "k"), group);
  at::Tensor state = Load(in, "state");
  const std::vector<int64_t> qsl = seq::Ints(in, "query_start_loc");
  at::Tensor out = at::zeros({v.size(0), v.size(1), v.size(2)}, at::kDouble);
  for (size_t s = 0; s + 1 < qsl.size(); ++s) {
    at::Tensor st = state[static_cast<int64_t>(s)];  // a view: updated in place
    for (int64_t t = qsl[s]; t < qsl[s + 1]; ++t) {
      out[t].copy_(seq::DeltaRuleToken(st, q[t], k[t], v[t], g[t].view({-1, 1, 1}), beta[t]));
    }
  }
  return {{"out", Out(out)}, {"state", Out(state)}};
}

}  // namespace vt::torchref
