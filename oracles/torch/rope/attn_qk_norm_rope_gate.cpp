// attn_qk_norm_rope_gate after Qwen3NextAttention.forward (qwen3_next.py):
// q_proj's output viewed per head as [q | gate] and chunked, q and k through
// the per-head GemmaRMSNorm (or RMSNorm) over Dh, then the NeoX rotary of the
// first rot dims by the token's given cos/sin row; the gate half is copied.
// The contract keeps the normalised value in f32 into the rotation (vLLM's
// module rounds it to the model dtype between the two ops).
#include "oracles/torch/rope/rope_ref.h"

namespace vt::torchref {
namespace local_attn_qk_norm_rope_gate {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

at::Tensor NormRope(const at::Tensor& v, const at::Tensor& w, bool gemma, double eps, const at::Tensor& c,
                    const at::Tensor& s, int64_t rot) {
  const at::Tensor n = v * at::rsqrt(MeanSquare(v) + eps) * (gemma ? w + 1.0 : w);
  return rope::Rotate(n, c, s, rot, true, /*given=*/false);  // n is computed, not given
}

}  // namespace
}  // namespace local_attn_qk_norm_rope_gate

Result Ref_attn_qk_norm_rope_gate(const Input& in) {
  using namespace local_attn_qk_norm_rope_gate;
  const auto& qs = in.Get("q_out").shape;  // [T, Hq, Dh]
  const auto& ks = in.Get("k_out").shape;  // [T, Hkv, Dh]
  const int64_t rot = in.Int("rot");
  const std::vector<at::Tensor> qg = Load(in, "qgate").view({qs[0], qs[1], 2 * qs[2]}).chunk(2, -1);
  const at::Tensor k = Load(in, "kf").view({ks[0], ks[1], ks[2]});
  const at::Tensor cs = Load(in, "cos_sin");
  const at::Tensor c = cs.narrow(-1, 0, rot / 2), s = cs.narrow(-1, rot / 2, rot / 2);
  const bool gemma = in.Flag("gemma");
  const double eps = in.F32("eps");
  return {{"q_out", Out(NormRope(qg[0], Load(in, "q_norm"), gemma, eps, c, s, rot))},
          {"k_out", Out(NormRope(k, Load(in, "k_norm"), gemma, eps, c, s, rot))},
          {"gate_out", Out(qg[1])}};
}

}  // namespace vt::torchref
