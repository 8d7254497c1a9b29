// torch reference: gdn_conv_split (the GDN layer's rearrange_mixed_qkv:
// torch.split of the conv output along its columns into
// [key_dim, key_dim, value_dim]).
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_gdn_conv_split(const Input& in) {
  const at::Tensor conv = Load(in, "conv");
  // The parts may take any shape of their element count (the catalog's
  // reshape knob): their widths are counts / T, T = conv's rows.
  const auto count = [&](const std::string& name) {
    int64_t n = 1;
    for (int64_t e : in.Get(name).shape) n *= e;
    return n;
  };
  const int64_t t = conv.size(0), kd = count("q_out") / t, vd = count("v_out") / t;
  const std::vector<at::Tensor> parts = at::split_with_sizes(conv, {kd, kd, vd}, /*dim=*/1);
  return {{"q_out", Out(parts[0])}, {"k_out", Out(parts[1])}, {"v_out", Out(parts[2])}};
}

}  // namespace vt::torchref
