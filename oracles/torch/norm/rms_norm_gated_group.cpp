// rms_norm_gated_group after vLLM's Mixer2RMSNormGated.forward_native
// (mamba_mixer2.py), tp_size 1:
//   v = x * silu(gate.float()); no weight: v.to(x.dtype);
//   else per group of `group` channels: v * rsqrt(mean(v^2) + eps), cast to
//   x's dtype, times the weight.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_rms_norm_gated_group(const Input& in) {
  const at::Tensor x = Load(in, "x");
  const vt::DType x_dt = in.Get("x").dtype;
  const at::Tensor v = x * Silu(Load(in, "gate"));
  if (!in.Has("weight")) return {{"out", Out(RoundTo(v, x_dt))}};
  const int64_t groups = in.Int("n_groups");
  const int64_t hidden = v.size(-1);
  std::vector<int64_t> grouped(v.sizes().begin(), v.sizes().end() - 1);
  grouped.push_back(groups);
  grouped.push_back(hidden / groups);
  const at::Tensor g = v.reshape(grouped);
  const at::Tensor normed = (g * at::rsqrt(MeanSquare(g) + in.F32("eps"))).reshape(v.sizes());
  // w times the stored cast: one f32 product of given values.
  return {{"out", Out(F32Product(Load(in, "weight"), RoundTo(normed, x_dt)))}};
}

}  // namespace vt::torchref
