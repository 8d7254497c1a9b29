// cast_f32: Tensor.to(torch.float32) of a bf16 tensor (exact), read through
// the input's strides, written row-major.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_cast_f32(const Input& in) {
  return {{"out", Out(View(in.Get("in")).to(at::kFloat).to(at::kDouble))}};
}

}  // namespace vt::torchref
