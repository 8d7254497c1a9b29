// rms_norm_gated after vLLM's RMSNormGated.forward_static (layernorm.py;
// fla layernorm_guard rms_norm_ref), norm_before_gate=True, no groups:
//   out = x * rsqrt(mean(x^2) + eps) * w * act(z), act = silu (swish) or sigmoid.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_rms_norm_gated(const Input& in) {
  const at::Tensor x = Load(in, "x");
  const at::Tensor z = Load(in, "gate");
  const at::Tensor w = Load(in, "weight");
  const at::Tensor act = in.Flag("sigmoid") ? Sigmoid(z) : Silu(z);
  const at::Tensor out = x * at::rsqrt(MeanSquare(x) + in.F32("eps")) * w * act;
  return {{"out", Out(out)}};
}

}  // namespace vt::torchref
