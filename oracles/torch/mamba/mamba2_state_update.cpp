// torch reference: mamba2_state_update (vLLM mops/mamba_ssm.py
// selective_state_update; plain-torch form: mamba-ssm's
// selective_state_update_ref at Mamba2's one-value-per-head dt / A / D):
//   dt' = softplus(dt + dt_bias) when asked (threshold 20), else dt + dt_bias
//   state' = state * exp(dt' A) + dt' B x        (B, C: group g = h / (H/G))
//   y = state' . C (+ D x) (* silu(z))
// per live row b on slot state_indices[b] (b without indices). y reads the
// unrounded state' as the Triton kernel does (its registers); the ref's
// `state.to(C.dtype)` re-read of the stored state is not this op's
// definition. A NULL row (slot < 0): y = 0, no slot touched.
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_mamba2_state_update(const Input& in) {
  const at::Tensor x = Load(in, "x");  // [Nb, H, P]
  at::Tensor state = Load(in, "state");  // [S, H, P, N]
  const int64_t nb = x.size(0), h = x.size(1), groups = in.Get("B").shape[1];
  at::Tensor dt = Load(in, "dt");  // [Nb, H]
  if (in.Has("dt_bias")) dt = dt + Load(in, "dt_bias");
  if (in.Flag("softplus")) dt = seq::Softplus20(dt);
  const at::Tensor b = seq::ExpandHeads(Load(in, "B"), h / groups);  // [Nb, H, N]
  const at::Tensor c = seq::ExpandHeads(Load(in, "C"), h / groups);
  const at::Tensor decay = at::exp(dt * Load(in, "A"));  // [Nb, H]
  const std::vector<int64_t> idx = in.Has("state_indices") ? seq::Ints(in, "state_indices") : std::vector<int64_t>();
  at::Tensor out = at::zeros_like(x);
  for (int64_t r = 0; r < nb; ++r) {
    const int64_t slot = idx.empty() ? r : idx[static_cast<size_t>(r)];
    if (slot < 0) continue;
    const at::Tensor next = state[slot] * decay[r].view({-1, 1, 1}) +
                            (dt[r].view({-1, 1, 1}) * b[r].unsqueeze(1)) * x[r].unsqueeze(-1);  // [H, P, N]
    state[slot].copy_(next);
    at::Tensor y = at::einsum("hpn,hn->hp", {next, c[r]});
    if (in.Has("D")) y = y + x[r] * Load(in, "D").unsqueeze(-1);
    if (in.Has("z")) y = y * at::silu(Load(in, "z")[r]);
    out[r].copy_(y);
  }
  return {{"out", Out(out)}, {"state", Out(state)}};
}

}  // namespace vt::torchref
