// torch reference: causal_conv1d_spec_update (vLLM mops/causal_conv1d.py
// causal_conv1d_update with num_accepted_tokens and query_start_loc, the
// speculative-decoding branch). Request r (tokens cu[r] .. cu[r+1], slot
// conv_state_indices[r], off = num_accepted_tokens[r] - 1) reads its window
// from the state row at columns off .. off+K-2, appends its n tokens and
// convolves (F.conv1d, depthwise, + bias, silu when asked): n outputs. The
// row then becomes row[off+1 ..] (one tap shift per step, upstream's
// `idx_tokens + 1` source offset) for L - n columns, then the n tokens.
// Columns read past the row's end are 0 (upstream leaves them to its mask;
// the project defines them, docs/ops/conv.md). A NULL slot (< 0) gives out 0
// and no state change; an empty request touches nothing.
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_causal_conv1d_spec_update(const Input& in) {
  const at::Tensor x = Load(in, "x"), w = Load(in, "weight");
  const at::Tensor bias = in.Has("bias") ? Load(in, "bias") : at::Tensor();
  at::Tensor state = Load(in, "conv_state");  // [N, C, L]
  const std::vector<int64_t> cu = seq::Ints(in, "cu_seqlens"), slot = seq::Ints(in, "conv_state_indices"),
                             accepted = seq::Ints(in, "num_accepted_tokens");
  const int64_t ch = w.size(0), width = w.size(1) - 1, len = state.size(2);
  at::Tensor out = at::zeros({x.size(0), ch}, at::kDouble);
  for (size_t r = 0; r + 1 < cu.size(); ++r) {
    const int64_t s = slot[r], lo = cu[r], n = cu[r + 1] - lo, off = accepted[r] - 1;
    if (s < 0 || n == 0) continue;
    // The row padded with zeros past its end, so that every offset reads.
    const at::Tensor row = at::cat({state[s], at::zeros({ch, off + 1}, at::kDouble)}, 1);
    const at::Tensor tokens = x.narrow(0, lo, n).t();                       // [C, n]
    const at::Tensor stream = at::cat({row.narrow(1, off, width), tokens}, 1);  // [C, K-1+n]
    at::Tensor y = seq::DepthwiseConv(stream, w, bias);  // [C, n]
    if (in.Flag("silu")) y = at::silu(y);
    out.narrow(0, lo, n).copy_(y.t());
    state[s].copy_(at::cat({row.narrow(1, off + 1, len - n), tokens}, 1));
  }
  return {{"out", Out(out)}, {"conv_state", Out(state)}};
}

}  // namespace vt::torchref
