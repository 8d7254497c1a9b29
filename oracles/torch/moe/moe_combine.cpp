// moe_combine: the fused-MoE final reduction as torch_experts writes it
// (tests/kernels/utils.py) - (expert_out * w[..., None]).sum(1) - then the
// routed scale on the finished sum and the shared expert's output added;
// the products w * x are the op's f32 products.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_moe_combine(const Input& in) {
  at::Tensor out =
      F32Product(Load(in, "expert_out"), Load(in, "weights").unsqueeze(-1)).sum(at::IntArrayRef{1}) * in.F32("routed_scale");
  if (in.Has("shared")) out = out + Load(in, "shared");
  return {{"out", Out(out)}};
}

}  // namespace vt::torchref
