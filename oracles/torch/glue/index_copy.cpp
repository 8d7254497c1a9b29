// index_copy: Tensor.index_copy_(0, idx, in) on the in-place out. torch leaves
// the winner of a repeated index unspecified; the op's contract writes in
// index order (the last row naming a destination wins), so the rows are
// copied one by one in that order. Rows no index names keep their values.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_index_copy(const Input& in) {
  at::Tensor out = Load(in, "out").clone();
  const at::Tensor src = Load(in, "in");
  const at::Tensor idx = View(in.Get("idx")).to(at::kLong).contiguous();
  const int64_t* ix = idx.data_ptr<int64_t>();
  for (int64_t i = 0; i < idx.numel(); ++i) out.select(0, ix[i]).copy_(src.select(0, i));
  return {{"out", Out(out)}};
}

}  // namespace vt::torchref
