// torch reference: dflash_block_attention (vLLM qwen3_dflash
// DFlashQwen3Attention run by a non-causal-capable backend; upstream's CPU
// form is SDPA with a block mask): the packed tokens are cut into request
// blocks by cu_seqlens; a query attends only to keys of its own block,
// bidirectionally, or causally with an optional sliding window w > 0 (key
// position c admitted when c <= i and c > i - w, positions within the block).
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_dflash_block_attention(const Input& in) {
  const at::Tensor q = Load(in, "query"), k = Load(in, "key"), v = Load(in, "value");
  const std::vector<int64_t> cu = seq::Ints(in, "cu_seqlens");
  const int64_t t = q.size(0);
  // Each token's request and its position inside that request's block.
  std::vector<int64_t> req(static_cast<size_t>(t)), pos(static_cast<size_t>(t));
  for (size_t r = 0; r + 1 < cu.size(); ++r) {
    for (int64_t i = cu[r]; i < cu[r + 1]; ++i) {
      req[static_cast<size_t>(i)] = static_cast<int64_t>(r);
      pos[static_cast<size_t>(i)] = i - cu[r];
    }
  }
  const at::Tensor rq = seq::Index(req), ps = seq::Index(pos);
  at::Tensor visible = rq.unsqueeze(1).eq(rq.unsqueeze(0));  // [query, key]: same block
  if (in.Flag("causal")) {
    const at::Tensor qi = ps.unsqueeze(1), kj = ps.unsqueeze(0);
    visible = visible.logical_and(kj.le(qi));
    const int64_t w = in.Int("window");
    if (w > 0) visible = visible.logical_and(kj.gt(qi - w));
  }
  return {{"out", Out(seq::MaskedAttention(q, k, v, in.F32("scale"), visible))}};
}

}  // namespace vt::torchref
