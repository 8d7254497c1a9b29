// soft_cap after vLLM's LogitsProcessor soft-cap branch (logits_processor.py):
// logits / cap, tanh, * cap. In-dtype: the three ops in x's dtype.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_soft_cap(const Input& in) {
  const double cap = in.F32("cap");
  const at::Tensor n = NativeOrNone(in, "x");
  const at::Tensor native = n.defined() ? at::tanh(n.reshape({-1}) / cap) * cap : n;
  return {{"out", Out(at::tanh(Flat(in, "x") / cap) * cap, AsF64(native))}};
}

}  // namespace vt::torchref
