// attention CPU kernel (dense GQA, causal or not, one packed sequence).
// Contract (validated by vt::Attention): query [T,Hq,D], key/value [T,Hkv,D]
// of one float dtype, out [T,Hq,D] f32/bf16, all contiguous, Hq % Hkv == 0,
// scale > 0. Query i of q-head h attends to keys 0..i (causal) or 0..T-1 of
// kv-head h / (Hq/Hkv) (attend_row.h). Split: (kv-head, block of up to 4 of
// its q-heads, query) items, head-major (AttendRows: a vector tier reads the
// block's keys once); each item owns its out rows, so bytes never depend on
// threads.
#include "cpu/attn/dense_attention.h"

#include "api/kernel_types.h"
#include "cpu/attn/attend_row.h"
#include "vt/registry.h"

namespace vt::cpu {

void DenseAttentionCpu(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
                       const Tensor& value, const AttentionArgs& args) {
  const int64_t t = query.shape[0], hq = query.shape[1], d = query.shape[2], hk = key.shape[1];
  const attn::HeadBlocks hb(hq / hk);
  // (the same tiers for the three CUDA-variant names that register this
  // function: their tier-table lines copy this one)
  static const std::vector<Isa> kTiers = OpTiers("attention");
  attn::ForEachRow(ctx, kTiers, query.dtype, out.dtype, hk * hb.per * t, [&](auto in, auto ost, int64_t r, attn::RowScratch& scratch) {
    using In = decltype(in);
    using Out = decltype(ost);
    const int64_t gb = r / t, i = r % t, g = gb / hb.per, b = gb % hb.per;
    const int64_t visible = args.causal ? i + 1 : t;
    const auto key_at = [&](int64_t j) { return attn::KeyRow{key.data, value.data, (j * hk + g) * d}; };
    const int64_t row = (i * hq + hb.First(g, b)) * d;  // the block's first q-head; the others follow, d apart
    attn::AttendRows<In, Out>(query.data, row, d, hb.Count(b), d, args.scale, visible, key_at, nullptr, 0, out.data, row, d,
                              scratch);
  });
}

void Register_attention() {
  RegisterTyped<kernel::AttentionFn>("attention", Backend::kCPU, &DenseAttentionCpu);
}

}  // namespace vt::cpu
