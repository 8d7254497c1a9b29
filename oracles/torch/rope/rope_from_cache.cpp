// rope_from_cache after RotaryEmbedding.forward_static / MRotaryEmbedding.
// forward_native: cos/sin rows of the given cache at each token's position
// ([3,T] positions: the mrope section or interleaved row choice), NeoX or
// GPT-J pairs, q and (when given) k rotated in place.
#include "oracles/torch/rope/rope_ref.h"

namespace vt::torchref {

Result Ref_rope_from_cache(const Input& in) {
  const at::Tensor cache = Load(in, "cache");
  const at::Tensor pos = View(in.Get("positions")).to(at::kLong);
  const bool mrope = pos.dim() == 2;
  if (mrope && in.Str("mrope") == "none") throw Error("[3,T] positions without mrope sections");
  const at::Tensor c = rope::CacheHalf(in, cache, pos, false), s = rope::CacheHalf(in, cache, pos, true);
  const int64_t rot = in.Int("rot");
  const bool neox = in.Flag("neox");
  Result r{{"q", Out(rope::Rotate(Load(in, "q"), c, s, rot, neox))}};
  if (in.Has("k")) r["k"] = Out(rope::Rotate(Load(in, "k"), c, s, rot, neox));
  return r;
}

}  // namespace vt::torchref
