// silu_and_mul after vLLM's SiluAndMul.forward_native (activation.py):
// F.silu(x[..., :d]) * x[..., d:]. The in-dtype variant is the same two torch
// ops in x's dtype (each rounds, as forward_native does on bf16).
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_silu_and_mul(const Input& in) {
  const at::Tensor x = Load(in, "x");
  const int64_t d = x.size(-1) / 2;
  const at::Tensor out = Silu(x.narrow(-1, 0, d)) * x.narrow(-1, d, d);
  const at::Tensor n = NativeOrNone(in, "x");
  const at::Tensor native = n.defined() ? at::silu(n.narrow(-1, 0, d)) * n.narrow(-1, d, d) : n;
  return {{"out", Out(out, AsF64(native))}};
}

}  // namespace vt::torchref
