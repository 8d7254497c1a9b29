// dflash_paged_block_attention CPU kernel. Contract (validated by
// vt::DFlashPagedBlockAttention, including every metadata VALUE): query/out
// [N,Hq,D], block_key/block_value [N,Hkv,D], ctx_key/ctx_value
// [pages, block_size, Hkv, D], one float input dtype, out f32/bf16, all
// contiguous; cu_seqlens [num_reqs+1] (0 .. N, non-decreasing), seq_lens
// [num_reqs] (0 <= C_r <= max_pages * block_size), block_table
// [num_reqs, max_pages] (page ids < pages where read).
// Request r's keys, in order: its C_r context rows (row c lives on page
// block_table[r][c / block_size] at height c % block_size), then its block's
// own rows. Block query ii sits at C_r + ii of that combined index, under the
// DFlash mask (dflash_mask.h). Split: (request, kv-head, block of up to 4 of
// its q-heads) items, request-major (AttendRows).
#include "api/kernel_types.h"
#include "cpu/attn/attend_row.h"
#include "cpu/attn/dflash_mask.h"
#include "vt/registry.h"

namespace vt::cpu {
namespace {

void DFlashPagedBlockAttentionCpu(const ExecContext& ctx, const Tensor& out, const Tensor& query,
                                  const Tensor& block_key, const Tensor& block_value, const Tensor& ctx_key,
                                  const Tensor& ctx_value, const Tensor& cu_seqlens, const Tensor& seq_lens,
                                  const Tensor& block_table, const DFlashPagedBlockAttentionArgs& args) {
  const int64_t hq = query.shape[1], d = query.shape[2], hk = block_key.shape[1];
  const attn::HeadBlocks hb(hq / hk);
  const int64_t bs = args.block_size, max_pages = block_table.shape[1];
  const int64_t page_stride = bs * hk * d, height_stride = hk * d;
  static const std::vector<Isa> kTiers = OpTiers("dflash_paged_block_attention");
  attn::ForEachRow(ctx, kTiers, query.dtype, out.dtype, hk * hb.per * args.num_reqs,
                   [&](auto in, auto ost, int64_t r, attn::RowScratch& scratch) {
    using In = decltype(in);
    using Out = decltype(ost);
    const int64_t req = r / (hk * hb.per), gb = r % (hk * hb.per), g = gb / hb.per, b = gb % hb.per;
    const int64_t start = IntAt(cu_seqlens, req), len = IntAt(cu_seqlens, req + 1) - start;
    const int64_t context = IntAt(seq_lens, req);
    for (int64_t ii = 0; ii < len; ++ii) {
      const attn::KeyRange vis = attn::DFlashVisible(context + ii, context + len, args.causal,
                                                     args.sliding_window);
      const auto key_at = [&](int64_t j) {
        const int64_t c = vis.lo + j;
        if (c < context) {
          const int64_t page = IntAt(block_table, req * max_pages + c / bs);
          return attn::KeyRow{ctx_key.data, ctx_value.data, page * page_stride + (c % bs) * height_stride + g * d};
        }
        return attn::KeyRow{block_key.data, block_value.data, ((start + c - context) * hk + g) * d};
      };
      const int64_t row = ((start + ii) * hq + hb.First(g, b)) * d;  // the block's first q-head
      attn::AttendRows<In, Out>(query.data, row, d, hb.Count(b), d, args.scale, vis.hi - vis.lo + 1, key_at, nullptr, 0,
                                out.data, row, d, scratch);
    }
  });
}

}  // namespace

void Register_dflash_paged_block_attention() {
  RegisterTyped<kernel::DFlashPagedBlockAttentionFn>("dflash_paged_block_attention", Backend::kCPU,
                                                     &DFlashPagedBlockAttentionCpu);
}

}  // namespace vt::cpu
