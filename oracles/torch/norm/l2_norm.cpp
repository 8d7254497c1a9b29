// l2_norm after fla's l2norm_fwd / vLLM's CPU l2norm (mops/cpu
// recurrent_gated_delta_rule.py): x * rsqrt(sum(x^2 over the last dim) + eps)
// - a plain sum with eps inside the root, not F.normalize's max(||x||, eps).
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_l2_norm(const Input& in) {
  const at::Tensor x = Load(in, "x");
  const at::Tensor out = x * at::rsqrt(SumSquare(x) + in.F32("eps"));
  return {{"out", Out(out)}};
}

}  // namespace vt::torchref
