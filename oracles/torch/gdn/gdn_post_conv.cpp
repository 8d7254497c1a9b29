// torch reference: gdn_post_conv (fla fused_post_conv_prep): the conv output
// split into q | k | v columns (torch.split), q and k viewed as [T, Hk, Dk]
// and L2-normalised per head with fla's l2norm (x * rsqrt(sum x^2 + eps), eps
// inside the root - not F.normalize), v as is, and the GDN gate
//   g = -exp(A_log) * softplus(a + dt_bias) (threshold 20), beta = sigmoid(b).
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_gdn_post_conv(const Input& in) {
  const at::Tensor conv = Load(in, "conv");
  const std::vector<int64_t>& qs = in.Get("q_out").shape;  // [T, Hk, Dk]
  const std::vector<int64_t>& vs = in.Get("v_out").shape;  // [T, Hv, Dv]
  const int64_t kd = qs[1] * qs[2], vd = vs[1] * vs[2];
  const std::vector<at::Tensor> parts = at::split_with_sizes(conv, {kd, kd, vd}, 1);
  const double eps = in.F32("eps");
  const auto l2 = [&](const at::Tensor& x) { return x * at::rsqrt((x * x).sum(-1, true) + eps); };
  const at::Tensor g = -at::exp(Load(in, "a_log")) * seq::Softplus20(Load(in, "a") + Load(in, "dt_bias"));
  return {{"q_out", Out(l2(parts[0].reshape(qs)))},
          {"k_out", Out(l2(parts[1].reshape(qs)))},
          {"v_out", Out(parts[2])},
          {"g_out", Out(g)},
          {"beta_out", Out(at::sigmoid(Load(in, "b")))}};
}

}  // namespace vt::torchref
