// qkv_split after the GDN layer's mixed-qkv split (rearrange_mixed_qkv /
// Qwen3NextGatedDeltaNet's torch.split): row t = [q (Q) | k (K) | v (V)];
// each part is written row-major into its output, whatever that output's shape.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_qkv_split(const Input& in) {
  const std::vector<at::Tensor> parts =
      Load(in, "qkv").split_with_sizes({in.Int("Q"), in.Int("K"), in.Int("V")}, -1);
  return {{"q_out", Out(parts[0])}, {"k_out", Out(parts[1])}, {"v_out", Out(parts[2])}};
}

}  // namespace vt::torchref
