// index_select: torch.index_select(in, 0, idx) (the GDN spec-decode token
// split), rows read through the input's strides.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_index_select(const Input& in) {
  const at::Tensor idx = View(in.Get("idx")).to(at::kLong);
  return {{"out", Out(Load(in, "in").index_select(0, idx))}};
}

}  // namespace vt::torchref
