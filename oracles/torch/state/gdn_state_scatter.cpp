// torch reference: gdn_state_scatter (the GDN layer's
// `ssm_state[idx] = final.to(ssm_state.dtype)`; in torch an index_copy_ into
// the leading columns of the named slots after the cast): the f32 working
// rows, rounded to the cache's dtype (round to nearest even, torch's .to),
// replace the leading Lw columns of cache slots state_idx[r]; the rest of the
// cache is unchanged.
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_gdn_state_scatter(const Input& in) {
  at::Tensor cache = Load(in, "cache");
  const at::Tensor working = Load(in, "working");
  const std::vector<int64_t> idx = seq::Ints(in, "state_idx");
  const at::Tensor rows = RoundTo(working, in.Get("cache").dtype);
  cache.narrow(-1, 0, working.size(-1)).index_copy_(0, seq::Index(idx), rows);
  return {{"cache", Out(cache)}};
}

}  // namespace vt::torchref
