// concat_mla_nope_rope after MLA's _concat_k_nope_k_pe torch fallback
// (mla_attention.py): torch.cat((nope, rope.expand(T, H, Dr)), dim=-1).
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_concat_mla_nope_rope(const Input& in) {
  const at::Tensor nope = Load(in, "nope");
  const at::Tensor rope = Load(in, "rope");
  return {{"out", Out(at::cat({nope, rope.expand({nope.size(0), nope.size(1), rope.size(2)})}, -1))}};
}

}  // namespace vt::torchref
