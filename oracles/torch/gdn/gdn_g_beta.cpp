// torch reference: gdn_g_beta (fla fused_gdn_gating; plain-torch form: vLLM
// mops/cpu gdn_gating):
//   g = -exp(A_log) * softplus(a + dt_bias)   (F.softplus, threshold 20)
//   beta = sigmoid(b)
// per token and value head; both outputs are f32 here (no cast of beta).
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_gdn_g_beta(const Input& in) {
  const at::Tensor g = -at::exp(Load(in, "a_log")) * seq::Softplus20(Load(in, "a") + Load(in, "dt_bias"));
  return {{"g_out", Out(g)}, {"beta_out", Out(at::sigmoid(Load(in, "b")))}};
}

}  // namespace vt::torchref
