// rope_cos_sin_cache after RotaryEmbeddingBase._compute_cos_sin_cache: row t
// = [cos(angle) | sin(angle)] of the case's positions. The op's contract takes
// inv_freq and the angles in float64 (then the f32 store); vLLM's module
// computes them in float32 - that path is the in-dtype variant.
#include "oracles/torch/rope/rope_ref.h"

namespace vt::torchref {

Result Ref_rope_cos_sin_cache(const Input& in) {
  const at::Tensor pos = Load(in, "positions");
  const at::Tensor a = rope::Angles(pos, rope::InvFreq(in, at::kDouble));
  const at::Tensor a32 = rope::Angles(View(in.Get("positions")).to(at::kLong), rope::InvFreq(in, at::kFloat));
  return {{"cos_sin", Out(at::cat({at::cos(a), at::sin(a)}, -1), AsF64(at::cat({at::cos(a32), at::sin(a32)}, -1)))}};
}

}  // namespace vt::torchref
