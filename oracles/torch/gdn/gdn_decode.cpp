// torch reference: gdn_decode (fla fused_sigmoid_gating_delta_rule_update's
// recurrence, with gating and normalisation done by the caller; plain-torch
// form: one step of fla naive_recurrent_gated_delta_rule): one token per
// request b on state row b, or on cache slot state_idx[b]; a NULL slot (< 0)
// gives an out row of 0 and leaves every slot alone.
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_gdn_decode(const Input& in) {
  const at::Tensor v = Load(in, "v"), g = Load(in, "g"), beta = Load(in, "beta");
  const int64_t batch = v.size(0), group = v.size(1) / in.Get("q").shape[1];
  const at::Tensor q = seq::ExpandHeads(Load(in, "q"), group) * in.F32("scale");
  const at::Tensor k = seq::ExpandHeads(Load(in, "k"), group);
  at::Tensor state = Load(in, "state");
  const std::vector<int64_t> idx = in.Has("state_idx") ? seq::Ints(in, "state_idx") : std::vector<int64_t>();
  at::Tensor out = at::zeros_like(v);
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t slot = idx.empty() ? b : idx[static_cast<size_t>(b)];
    if (slot < 0) continue;
    at::Tensor st = state[slot];
    out[b].copy_(seq::DeltaRuleToken(st, q[b], k[b], v[b], g[b].view({-1, 1, 1}), beta[b]));
  }
  return {{"out", Out(out)}, {"state", Out(state)}};
}

}  // namespace vt::torchref
