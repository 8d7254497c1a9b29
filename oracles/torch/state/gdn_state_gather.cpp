// torch reference: gdn_state_gather (the GDN layer's `ssm_state[idx]`, with
// rows that have no initial state zeroed - vLLM mops/gdn_state_io.py; in torch
// an index_select, a slice of the leading columns and a where): working row r
// = the leading Lw columns of cache slot state_idx[r], widened to f32
// (exact), or 0 where has_initial_state[r] is 0.
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_gdn_state_gather(const Input& in) {
  const at::Tensor cache = Load(in, "cache");  // [slots, ..., Lc]
  const std::vector<int64_t> idx = seq::Ints(in, "state_idx");
  const int64_t lw = in.Get("working").shape.back();
  at::Tensor rows = cache.index_select(0, seq::Index(idx)).narrow(-1, 0, lw);
  if (in.Has("has_initial_state")) {
    std::vector<int64_t> shape(static_cast<size_t>(rows.dim()), 1);
    shape[0] = rows.size(0);
    const at::Tensor keep = seq::Index(seq::Ints(in, "has_initial_state")).ne(0).reshape(shape);
    rows = at::where(keep, rows, at::zeros_like(rows));
  }
  return {{"working", Out(rows)}};
}

}  // namespace vt::torchref
