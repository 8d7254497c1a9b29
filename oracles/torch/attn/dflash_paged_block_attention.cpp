// torch reference: dflash_paged_block_attention (vLLM qwen3_dflash: the
// context K/V of each request sits in the paged KV cache, the draft block's
// own K/V is appended; tests/kernels/attention ref_paged_attn reads a paged
// cache the same way). Request r's keys are its C_r = seq_lens[r] context rows
// - row c on page block_table[r][c / block_size] at height c % block_size -
// followed by its block's rows; block query ii sits at C_r + ii of that order
// and is masked as in dflash_block_attention (bidirectional, or causal with a
// sliding window). Built per request with index_select and cat.
#include "oracles/torch/seq/seq_ops.h"

namespace vt::torchref {

Result Ref_dflash_paged_block_attention(const Input& in) {
  const at::Tensor q = Load(in, "query"), bk = Load(in, "block_key"), bv = Load(in, "block_value");
  at::Tensor ck = Load(in, "ctx_key"), cv = Load(in, "ctx_value");  // [pages, bs, hk, d]
  const int64_t bs = ck.size(1), hk = ck.size(2), d = ck.size(3);
  ck = ck.reshape({-1, hk, d});  // one row per (page, height)
  cv = cv.reshape({-1, hk, d});
  const std::vector<int64_t> cu = seq::Ints(in, "cu_seqlens"), lens = seq::Ints(in, "seq_lens"),
                             table = seq::Ints(in, "block_table");
  const int64_t max_pages = in.Get("block_table").shape[1];
  const bool causal = in.Flag("causal");
  const int64_t w = in.Int("window");
  at::Tensor out = at::zeros_like(q);
  for (size_t r = 0; r + 1 < cu.size(); ++r) {
    const int64_t lo = cu[r], n = cu[r + 1] - lo, ctx = lens[r];
    if (n == 0) continue;
    std::vector<int64_t> rows;
    for (int64_t c = 0; c < ctx; ++c) rows.push_back(table[r * static_cast<size_t>(max_pages) + static_cast<size_t>(c / bs)] * bs + c % bs);
    const at::Tensor at_rows = seq::Index(rows);
    const at::Tensor keys = at::cat({ck.index_select(0, at_rows), bk.narrow(0, lo, n)}, 0);
    const at::Tensor vals = at::cat({cv.index_select(0, at_rows), bv.narrow(0, lo, n)}, 0);
    at::Tensor visible = at::ones({n, ctx + n}, at::kBool);
    if (causal) {
      const at::Tensor qi = (at::arange(n, at::kLong) + ctx).unsqueeze(1), kj = at::arange(ctx + n, at::kLong).unsqueeze(0);
      visible = kj.le(qi);
      if (w > 0) visible = visible.logical_and(kj.gt(qi - w));
    }
    out.narrow(0, lo, n).copy_(seq::MaskedAttention(q.narrow(0, lo, n), keys, vals, in.F32("scale"), visible));
  }
  return {{"out", Out(out)}};
}

}  // namespace vt::torchref
