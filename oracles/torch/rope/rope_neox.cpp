// rope_neox after RotaryEmbedding.forward_static (NeoX style): the cos/sin of
// the op's float64 angles stored to f32 (the contract's rounding point), the
// rotation of q and k in place. In-dtype: vLLM's float32 cache and the
// rotation in q's dtype.
#include "oracles/torch/rope/rope_ref.h"

namespace vt::torchref {

Result Ref_rope_neox(const Input& in) {
  const int64_t rot = in.Int("rot");
  const at::Tensor a = rope::Angles(Load(in, "positions"), rope::InvFreq(in, at::kDouble));
  const at::Tensor c = RoundF32(at::cos(a)), s = RoundF32(at::sin(a));
  const at::Tensor a32 = rope::Angles(View(in.Get("positions")).to(at::kLong), rope::InvFreq(in, at::kFloat));
  Result r;
  for (const char* name : {"q", "k"}) {
    const at::Tensor n = LoadNative(in, name);
    const at::Tensor native = rope::Rotate(n, at::cos(a32).to(n.scalar_type()), at::sin(a32).to(n.scalar_type()), rot, true,
                                                 /*given=*/false);  // torch's own in-dtype products
    r[name] = Out(rope::Rotate(Load(in, name), c, s, rot, true), native.to(at::kDouble));
  }
  return r;
}

}  // namespace vt::torchref
