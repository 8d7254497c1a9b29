// torch reference: causal_conv1d_fwd (vLLM mops/causal_conv1d.py
// causal_conv1d_fn, varlen by query_start_loc; its plain-torch form is
// causal-conv1d's causal_conv1d_ref): per sequence, the stream
// cat(initial state taps, or K-1 zeros | the sequence's x) [C, K-1+len] goes
// through F.conv1d with the [C, 1, K] depthwise weight, no padding, groups C,
// plus bias, then silu when asked; the new conv state is the stream's last
// K-1 values (causal_conv1d_ref's return_final_states).
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_causal_conv1d_fwd(const Input& in) {
  const at::Tensor x = Load(in, "x"), w = Load(in, "weight");  // [T, C], [C, K]
  const at::Tensor bias = in.Has("bias") ? Load(in, "bias") : at::Tensor();
  at::Tensor state = Load(in, "conv_state");  // [N, C, K-1]
  const std::vector<int64_t> qsl = seq::Ints(in, "query_start_loc"), init = seq::Ints(in, "has_initial_state");
  const int64_t ch = w.size(0), k = w.size(1), width = k - 1;
  const bool silu = in.Flag("silu");
  at::Tensor out = at::zeros({x.size(0), ch}, at::kDouble);
  for (size_t s = 0; s + 1 < qsl.size(); ++s) {
    const int64_t lo = qsl[s], len = qsl[s + 1] - lo;
    const at::Tensor head = init[s] != 0 ? state[static_cast<int64_t>(s)] : at::zeros({ch, width}, at::kDouble);
    const at::Tensor stream = at::cat({head, x.narrow(0, lo, len).t()}, 1);  // [C, K-1+len]
    if (len > 0) {
      at::Tensor y = seq::DepthwiseConv(stream, w, bias);  // [C, len]
      if (silu) y = at::silu(y);
      out.narrow(0, lo, len).copy_(y.t());
    }
    state[static_cast<int64_t>(s)].copy_(stream.narrow(1, len, width));
  }
  return {{"out", Out(out)}, {"conv_state", Out(state)}};
}

}  // namespace vt::torchref
