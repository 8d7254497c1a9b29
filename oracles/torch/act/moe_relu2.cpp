// moe_relu2 after vLLM's ReLUSquaredActivation.forward_native (activation.py):
// torch.square(F.relu(x)), one f32 product. One difference, the contract's
// (docs/special-values.md): relu is x > 0 ? x : 0, so relu(NaN) = 0, where
// torch's relu propagates the NaN - followed here, reported as a divergence
// from vLLM's path (docs/torch.md).
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_moe_relu2(const Input& in) {
  const at::Tensor x = Flat(in, "x");
  const at::Tensor r = at::where(x > 0, x, at::zeros_like(x));
  return {{"out", Out(F32Product(r, r))}};
}

}  // namespace vt::torchref
