// torch reference: gdn_g_beta (fla fused_gdn_gating; plain-torch form: vLLM
// mops/cpu gdn_gating):
//   g = -exp(A_log) * softplus(a + dt_bias)   (F.softplus, threshold 20)
//   beta = sigmoid(b)
// per token and value head; both outputs are f32 here (no cast of beta).
#include "oracles/torch/seq_ops.h"

namespace vt::torchref {

Result Ref_gdn_g_beta(const Input& in) {
  const at::Tensor g = -at::exp(seq::F64(in, "a_log")) * seq::Softplus20(seq::F64(in, "a") + seq::F64(in, "dt_bias"));
  return {{"g_out", seq::Out(g)}, {"beta_out", seq::Out(at::sigmoid(seq::F64(in, "b")))}};
}

}  // namespace vt::torchref
