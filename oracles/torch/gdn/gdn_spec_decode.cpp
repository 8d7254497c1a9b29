// torch reference: gdn_spec_decode (fla fused_recurrent_gated_delta_rule with
// 2-D ssm_state_indices, num_accepted_tokens and inplace_final_state - the
// spec-decoding path; plain-torch form: the recurrent rule token by token,
// keeping each token's state). Request r (tokens cu[r] .. cu[r+1]) starts
// from slot state_indices[r][accepted[r] - 1]; after its t-th token the
// running state is written to slot state_indices[r][t] (a negative entry:
// not written). A negative start slot: out rows 0, nothing written.
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_gdn_spec_decode(const Input& in) {
  const at::Tensor v = Load(in, "v"), g = Load(in, "g"), beta = Load(in, "beta");
  const int64_t group = v.size(1) / in.Get("q").shape[1];
  const at::Tensor q = seq::ExpandHeads(Load(in, "q"), group) * in.F32("scale");
  const at::Tensor k = seq::ExpandHeads(Load(in, "k"), group);
  at::Tensor state = Load(in, "state");
  const std::vector<int64_t> cu = seq::Ints(in, "cu_seqlens"), table = seq::Ints(in, "state_indices"),
                             accepted = seq::Ints(in, "num_accepted_tokens");
  const size_t cols = static_cast<size_t>(in.Get("state_indices").shape[1]);
  at::Tensor out = at::zeros_like(v);
  for (size_t r = 0; r + 1 < cu.size(); ++r) {
    const int64_t start = table[r * cols + static_cast<size_t>(accepted[r] - 1)];
    if (start < 0) continue;
    at::Tensor running = state[start].clone();
    for (int64_t t = cu[r]; t < cu[r + 1]; ++t) {
      out[t].copy_(seq::DeltaRuleToken(running, q[t], k[t], v[t], g[t].view({-1, 1, 1}), beta[t]));
      const int64_t snap = table[r * cols + static_cast<size_t>(t - cu[r])];
      if (snap >= 0) state[snap].copy_(running);
    }
  }
  return {{"out", Out(out)}, {"state", Out(state)}};
}

}  // namespace vt::torchref
