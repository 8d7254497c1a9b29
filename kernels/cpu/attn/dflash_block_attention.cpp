// dflash_block_attention CPU kernel. Contract (validated by
// vt::DFlashBlockAttention): query/out [T,Hq,D], key/value [T,Hkv,D], one
// float input dtype, out f32/bf16, contiguous; host cu_seqlens [num_reqs+1]
// with cu[0] = 0, cu[num_reqs] = T, non-decreasing. Query ii of block
// [cu[r], cu[r+1]) attends to the block's keys DFlashVisible(ii) (dflash_mask.h)
// and never across the block boundary. Split: (request, kv-head, block of up
// to 4 of its q-heads) items, request-major (AttendRows); each owns the out
// rows of its request's block and those heads.
#include "api/kernel_types.h"
#include "cpu/attn/attend_row.h"
#include "cpu/attn/dflash_mask.h"
#include "vt/registry.h"

namespace vt::cpu {
namespace {

void DFlashBlockAttentionCpu(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
                             const Tensor& value, const DFlashBlockAttentionArgs& args) {
  const int64_t hq = query.shape[1], d = query.shape[2], hk = key.shape[1];
  const attn::HeadBlocks hb(hq / hk);
  const int32_t* cu = args.cu_seqlens;
  static const std::vector<Isa> kTiers = OpTiers("dflash_block_attention");
  attn::ForEachRow(ctx, kTiers, query.dtype, out.dtype, hk * hb.per * args.num_reqs,
                   [&](auto in, auto ost, int64_t r, attn::RowScratch& scratch) {
    using In = decltype(in);
    using Out = decltype(ost);
    const int64_t req = r / (hk * hb.per), gb = r % (hk * hb.per), g = gb / hb.per, b = gb % hb.per;
    const int64_t start = cu[req], len = cu[req + 1] - cu[req];
    for (int64_t ii = 0; ii < len; ++ii) {
      const attn::KeyRange vis = attn::DFlashVisible(ii, len, args.causal, args.sliding_window);
      const auto key_at = [&](int64_t j) {
        return attn::KeyRow{key.data, value.data, ((start + vis.lo + j) * hk + g) * d};
      };
      const int64_t row = ((start + ii) * hq + hb.First(g, b)) * d;  // the block's first q-head
      attn::AttendRows<In, Out>(query.data, row, d, hb.Count(b), d, args.scale, vis.hi - vis.lo + 1, key_at, nullptr, 0,
                                out.data, row, d, scratch);
    }
  });
}

}  // namespace

void Register_dflash_block_attention() {
  RegisterTyped<kernel::DFlashBlockAttentionFn>("dflash_block_attention", Backend::kCPU, &DFlashBlockAttentionCpu);
}

}  // namespace vt::cpu
