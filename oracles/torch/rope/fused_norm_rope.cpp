// fused_norm_rope: DeepSeek MLA's prologue (deepseek_v2.py), composed as
// vLLM runs it unfused: RMSNorm / GemmaRMSNorm.forward_native over the latent
// x[:, :off] (kv_a_layernorm), and the rotary embedding of the rope slice
// x[:, off:] as one head from the cos/sin cache (DeepseekScalingRotaryEmbedding
// forward_native's rotation, NeoX or GPT-J pairs).
#include "oracles/torch/rope/rope_ref.h"

namespace vt::torchref {

Result Ref_fused_norm_rope(const Input& in) {
  const at::Tensor x = Load(in, "x");
  const int64_t off = in.Int("off"), rot = in.Int("rot");
  const at::Tensor latent = x.narrow(-1, 0, off);
  const at::Tensor w = Load(in, "weight");
  const at::Tensor normed = latent * at::rsqrt(MeanSquare(latent) + in.F32("eps")) *
                            (in.Flag("gemma") ? w + 1.0 : w);
  const at::Tensor cache = Load(in, "cache");
  const at::Tensor pos = View(in.Get("positions")).to(at::kLong);
  const at::Tensor c = rope::CacheHalf(in, cache, pos, false), s = rope::CacheHalf(in, cache, pos, true);
  const at::Tensor pe = rope::Rotate(x.narrow(-1, off, rot).unsqueeze(1), c, s, rot, in.Flag("neox")).squeeze(1);
  return {{"latent_out", Out(normed)}, {"pe_out", Out(pe)}};
}

}  // namespace vt::torchref
