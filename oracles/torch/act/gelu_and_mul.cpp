// gelu_and_mul after vLLM's GeluAndMul(approximate="tanh").forward_native:
// F.gelu(x[..., :d], approximate="tanh") * x[..., d:].
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_gelu_and_mul(const Input& in) {
  const at::Tensor x = Load(in, "x");
  const int64_t d = x.size(-1) / 2;
  const at::Tensor out = at::gelu(x.narrow(-1, 0, d), "tanh") * x.narrow(-1, d, d);
  const at::Tensor n = NativeOrNone(in, "x");
  const at::Tensor native = n.defined() ? at::gelu(n.narrow(-1, 0, d), "tanh") * n.narrow(-1, d, d) : n;
  return {{"out", Out(out, AsF64(native))}};
}

}  // namespace vt::torchref
