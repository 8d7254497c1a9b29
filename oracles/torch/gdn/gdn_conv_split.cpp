// torch reference: gdn_conv_split (the GDN layer's rearrange_mixed_qkv:
// torch.split of the conv output along its columns into
// [key_dim, key_dim, value_dim]).
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_gdn_conv_split(const Input& in) {
  const at::Tensor conv = Load(in, "conv");
  const int64_t kd = in.Get("q_out").shape[1], vd = in.Get("v_out").shape[1];
  const std::vector<at::Tensor> parts = at::split_with_sizes(conv, {kd, kd, vd}, /*dim=*/1);
  return {{"q_out", Out(parts[0])}, {"k_out", Out(parts[1])}, {"v_out", Out(parts[2])}};
}

}  // namespace vt::torchref
