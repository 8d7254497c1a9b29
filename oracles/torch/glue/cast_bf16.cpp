// cast_bf16: Tensor.to(torch.bfloat16) (round to nearest even, NaN and inf
// carried), read through the input's strides, written row-major. The value is
// torch's own cast (c10's conversion), not the harness's rounding.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_cast_bf16(const Input& in) {
  return {{"out", Out(View(in.Get("in")).to(at::kBFloat16).to(at::kDouble))}};
}

}  // namespace vt::torchref
