// attention_cross CPU kernel: non-causal attention of Tq queries over S keys
// with an optional additive f32 score bias. Contract (validated by
// vt::AttentionCross): query [Tq,Hq,D], key/value [S,Hkv,D] of one float
// dtype, out [Tq,Hq,D] f32/bf16, bias [Tq or 1, S] f32 (one row: broadcast),
// all contiguous. Split: (kv-head, block of up to 4 of its q-heads, query)
// items, head-major (AttendRows).
#include "api/kernel_types.h"
#include "cpu/attn/attend_row.h"
#include "vt/registry.h"

namespace vt::cpu {
namespace {

void AttentionCrossCpu(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
                       const Tensor& value, const Tensor* bias, const AttentionCrossArgs& args) {
  const int64_t tq = query.shape[0], hq = query.shape[1], d = query.shape[2];
  const int64_t s = key.shape[0], hk = key.shape[1];
  const attn::HeadBlocks hb(hq / hk);
  const bool broadcast = bias != nullptr && bias->shape[0] == 1;
  static const std::vector<Isa> kTiers = OpTiers("attention_cross");
  attn::ForEachRow(ctx, kTiers, query.dtype, out.dtype, hk * hb.per * tq, [&](auto in, auto ost, int64_t r, attn::RowScratch& scratch) {
    using In = decltype(in);
    using Out = decltype(ost);
    const int64_t gb = r / tq, i = r % tq, g = gb / hb.per, b = gb % hb.per;
    const auto key_at = [&](int64_t j) { return attn::KeyRow{key.data, value.data, (j * hk + g) * d}; };
    const int64_t row = (i * hq + hb.First(g, b)) * d;  // the block's first q-head; the others follow, d apart
    const int64_t boff = broadcast ? 0 : i * s;
    attn::AttendRows<In, Out>(query.data, row, d, hb.Count(b), d, args.scale, s, key_at,
                              bias != nullptr ? bias->data : nullptr, boff, out.data, row, d, scratch);
  });
}

}  // namespace

void Register_attention_cross() {
  RegisterTyped<kernel::AttentionCrossFn>("attention_cross", Backend::kCPU, &AttentionCrossCpu);
}

}  // namespace vt::cpu
