// torch reference: causal_conv1d_update (vLLM mops/causal_conv1d.py
// causal_conv1d_update, one token per row; causal-conv1d's
// causal_conv1d_update_ref): the row's K-1 window taps, then the token, make
// the [C, K] stream; out = F.conv1d(stream, [C,1,K] weight, bias, groups C)
// (+ silu), and the window rolls left by one with the raw token appended.
// Widened rows (L > K-1 columns): the seed and vLLM's non-spec kernel use
// the LEADING K-1 columns as the window (state_len = K-1 with the row's
// physical stride; docs/ops/conv.md) and leave the rest alone -
// causal_conv1d_update_ref would roll the whole row, which is not this op.
// Row b uses cache slot conv_state_indices[b] (b without indices); a
// negative slot is a NULL row: out 0 (the project's definition), no state.
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_causal_conv1d_update(const Input& in) {
  const at::Tensor x = Load(in, "x"), w = Load(in, "weight");  // [B, C], [C, K]
  const at::Tensor bias = in.Has("bias") ? Load(in, "bias") : at::Tensor();
  at::Tensor state = Load(in, "conv_state");  // [N, C, L]
  const int64_t batch = x.size(0), ch = w.size(0), width = w.size(1) - 1;
  std::vector<int64_t> slot(static_cast<size_t>(batch));
  if (in.Has("conv_state_indices")) {
    slot = seq::Ints(in, "conv_state_indices");
  } else {
    for (int64_t b = 0; b < batch; ++b) slot[static_cast<size_t>(b)] = b;
  }
  at::Tensor out = at::zeros({batch, ch}, at::kDouble);
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t s = slot[static_cast<size_t>(b)];
    if (s < 0) continue;
    const at::Tensor window = state[s].narrow(1, 0, width);  // [C, K-1]
    const at::Tensor stream = at::cat({window, x[b].unsqueeze(1)}, 1);  // [C, K]
    at::Tensor y = seq::DepthwiseConv(stream, w, bias).squeeze(1);  // [C]
    if (in.Flag("silu")) y = at::silu(y);
    out[b].copy_(y);
    window.copy_(stream.narrow(1, 1, width).clone());
  }
  return {{"out", Out(out)}, {"conv_state", Out(state)}};
}

}  // namespace vt::torchref
