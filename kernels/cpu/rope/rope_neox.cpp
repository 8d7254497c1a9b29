// rope_neox CPU kernel. Contract (validated by vt::RopeNeox): q [T,Hq,D] and
// k [T,Hk,D] contiguous, one dtype (f32/bf16), in place; positions [T]
// i32/i64; rot even, <= D; base and the Llama-3 fields positive and finite.
// Per (token, pair i): (c, s) = f32 cos/sin of the double angle
// (rope::PairCosSin), formed once per token and shared by every head; each
// head's NeoX pair (x, y) = (h[i], h[i + rot/2]) becomes (x*c - y*s, x*s + y*c)
// in f32, stored at q's dtype. Dims >= rot untouched. Split: tokens.
// Tiers: portable (below, the reference), avx2 and avx512: the cos/sin are
// the same scalar calls (rope::PairCosSin, libm cos/sin/pow are never
// vectorized), only the rotation runs a vector of pairs per step
// (rope_tiers.h).
#include <vector>

#include "api/kernel_types.h"
#include "cpu/rope/rope_common.h"
#include "cpu/rope/rope_tiers.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

template <class St>
void RotateNeoxHeads(const Tensor& t, int64_t token, int64_t half, const std::vector<rope::CosSin>& cs) {
  const int64_t heads = t.shape[1], d = t.shape[2];
  for (int64_t head = 0; head < heads; ++head) {
    const int64_t base = (token * heads + head) * d;
    for (int64_t i = 0; i < half; ++i) {
      const float x = St::Load(t.data, base + i);
      const float y = St::Load(t.data, base + i + half);
      St::Store(t.data, base + i, x * cs[i].c - y * cs[i].s);
      St::Store(t.data, base + i + half, x * cs[i].s + y * cs[i].c);
    }
  }
}

// The vector tiers: the token's f32 cos/sin row as the portable tier forms
// it, then every head row of q and k (contiguous, D apart) rotated from it.
void RopeNeoxTier(const ExecContext& ctx, Isa tier, const Tensor& q, const Tensor& k, const Tensor& positions,
                  const RopeArgs& args) {
  const int64_t half = args.rotary_dim / 2;
  const int64_t es = q.ElementSize();
  RopeRowsJob job;
  job.bf16 = q.dtype == DType::kBF16;
  job.neox = true;
  job.half = half;
  ParallelForRows(ctx, q.shape[0], [&](int64_t r0, int64_t r1) {
    CountTierRun(tier);
    std::vector<float> cs(static_cast<size_t>(2 * half));  // [cos | sin]
    RopeRowsJob jt = job;
    jt.c = cs.data(), jt.s = cs.data() + half;
    for (int64_t token = r0; token < r1; ++token) {
      const int64_t pos = rope::PositionAt(positions, token);
      for (int64_t i = 0; i < half; ++i) {
        const rope::CosSin v = rope::PairCosSin(pos, i, args.rotary_dim, args);
        cs[static_cast<size_t>(i)] = v.c;
        cs[static_cast<size_t>(half + i)] = v.s;
      }
      for (const Tensor* t : {&q, &k}) {
        const int64_t heads = t->shape[1], d = t->shape[2];
        RopeRowsOn(tier, jt, static_cast<unsigned char*>(t->data) + token * heads * d * es, heads, d * es);
      }
    }
  });
}

void RopeNeoxCpu(const ExecContext& ctx, const Tensor& q, const Tensor& k, const Tensor& positions,
                 const RopeArgs& args) {
  static const std::vector<Isa> kTiers = OpTiers("rope_neox");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);
  if (tier != Isa::kPortable) {
    RopeNeoxTier(ctx, tier, q, k, positions, args);
    return;
  }
  const int64_t half = args.rotary_dim / 2;
  WithFloatOutElem(q.dtype, [&](auto storage) {
    using St = decltype(storage);
    ParallelForRows(ctx, q.shape[0], [&](int64_t r0, int64_t r1) {
      CountTierRun(Isa::kPortable);
      std::vector<rope::CosSin> cs(static_cast<size_t>(half));
      for (int64_t token = r0; token < r1; ++token) {
        const int64_t pos = rope::PositionAt(positions, token);
        for (int64_t i = 0; i < half; ++i) cs[static_cast<size_t>(i)] = rope::PairCosSin(pos, i, args.rotary_dim, args);
        RotateNeoxHeads<St>(q, token, half, cs);
        RotateNeoxHeads<St>(k, token, half, cs);
      }
    });
  });
}

}  // namespace

void Register_rope_neox() { RegisterTyped<kernel::RopeNeoxFn>("rope_neox", Backend::kCPU, &RopeNeoxCpu); }

}  // namespace vt::cpu
