// torch reference: gdn_post_conv (fla fused_post_conv_prep): the conv output
// split into q | k | v columns (torch.split), q and k viewed as [T, Hk, Dk]
// and L2-normalised per head with fla's l2norm (x * rsqrt(sum x^2 + eps), eps
// inside the root - not F.normalize), v as is, and the GDN gate
//   g = -exp(A_log) * softplus(a + dt_bias) (threshold 20), beta = sigmoid(b).
#include "oracles/torch/seq_ops.h"

namespace vt::torchref {

Result Ref_gdn_post_conv(const Input& in) {
  const at::Tensor conv = seq::F64(in, "conv");
  const std::vector<int64_t>& qs = in.Get("q_out").shape;  // [T, Hk, Dk]
  const std::vector<int64_t>& vs = in.Get("v_out").shape;  // [T, Hv, Dv]
  const int64_t kd = qs[1] * qs[2], vd = vs[1] * vs[2];
  const std::vector<at::Tensor> parts = at::split_with_sizes(conv, {kd, kd, vd}, 1);
  const double eps = in.F32("eps");
  const auto l2 = [&](const at::Tensor& x) { return x * at::rsqrt((x * x).sum(-1, true) + eps); };
  const at::Tensor g = -at::exp(seq::F64(in, "a_log")) * seq::Softplus20(seq::F64(in, "a") + seq::F64(in, "dt_bias"));
  return {{"q_out", seq::Out(l2(parts[0].reshape(qs)))},
          {"k_out", seq::Out(l2(parts[1].reshape(qs)))},
          {"v_out", seq::Out(parts[2])},
          {"g_out", seq::Out(g)},
          {"beta_out", seq::Out(at::sigmoid(seq::F64(in, "b")))}};
}

}  // namespace vt::torchref
