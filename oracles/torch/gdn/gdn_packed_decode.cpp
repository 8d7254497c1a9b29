// torch reference: gdn_packed_decode (vLLM fla fused_recurrent_gated_delta_rule
// _packed_decode; its reference in vLLM's test is the split + l2norm + gating
// + fused_recurrent_gated_delta_rule composition, restated here in torch):
// per request row, mixed_qkv = [q (Hk*Dk) | k (Hk*Dk) | v (Hv*Dv)]; q and k
// are L2-normalised per head with the fixed eps 1e-6 inside the root
// (x * rsqrt(sum x^2 + 1e-6), fla l2norm), q scaled;
//   g = -exp(a_log) * softplus(a + dt_bias)   (threshold 20)
//   beta = sigmoid(b), rounded to b's dtype (the upstream kernel's
//          `sigmoid(b.float()).to(b.dtype)`: a rounding point of the op)
// then one gated-delta-rule step on cache slot state_idx[b]; a NULL slot
// gives an out row of 0. The state's own store rounding is the comparison's.
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_gdn_packed_decode(const Input& in) {
  const at::Tensor mixed = Load(in, "mixed_qkv"), a = Load(in, "a");
  at::Tensor state = Load(in, "state");  // [slots, Hv, Dv, Dk]
  const int64_t batch = mixed.size(0), hv = state.size(1), dv = state.size(2), dk = state.size(3);
  const int64_t hk = (mixed.size(1) - hv * dv) / (2 * dk);
  const auto l2 = [](const at::Tensor& x) { return x * at::rsqrt((x * x).sum(-1, /*keepdim=*/true) + 1e-6); };
  const at::Tensor q = seq::ExpandHeads(l2(mixed.narrow(1, 0, hk * dk).reshape({batch, hk, dk})), hv / hk) *
                       in.F32("scale");
  const at::Tensor k = seq::ExpandHeads(l2(mixed.narrow(1, hk * dk, hk * dk).reshape({batch, hk, dk})), hv / hk);
  const at::Tensor v = mixed.narrow(1, 2 * hk * dk, hv * dv).reshape({batch, hv, dv});
  const at::Tensor g = -at::exp(Load(in, "a_log")) * seq::Softplus20(a + Load(in, "dt_bias"));
  const at::Tensor beta = RoundTo(at::sigmoid(Load(in, "b")), in.Get("b").dtype);
  const std::vector<int64_t> idx = seq::Ints(in, "state_idx");
  at::Tensor out = at::zeros({batch, hv, dv}, at::kDouble);
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t slot = idx[static_cast<size_t>(b)];
    if (slot < 0) continue;
    at::Tensor st = state[slot];
    out[b].copy_(seq::DeltaRuleToken(st, q[b], k[b], v[b], g[b].view({-1, 1, 1}), beta[b]));
  }
  return {{"out", Out(out)}, {"state", Out(state)}};
}

}  // namespace vt::torchref
