// rope_from_cache CPU kernel. Contract (validated by vt::RopeFromCache): q
// [T,Hq,D] and optional k [T,Hk,D] share the cache's dtype (f32/bf16), inner
// dim packed, token/head strides non-overlapping; positions [T] or [3,T]
// i32/i64 contiguous, every entry in [0, P); cache [P,rot] contiguous; rot
// even, <= D; mrope sections sum to rot/2. In place.
// Per (token, pair): c = cache[p][pair], s = cache[p][rot/2 + pair] (read at
// the cache's dtype, widened to f32); each head's pair (x, y) becomes
// (x*c - y*s, x*s + y*c) in f32, stored at q's dtype. Pairs are (i, i+rot/2)
// (NeoX) or (2i, 2i+1) (GPT-J). Split: tokens; every element is written once.
// Tiers: portable (below, the reference), avx2 and avx512 (rope_tiers.h: the
// same operations per element, a vector of pairs per step).
#include <vector>

#include "api/kernel_types.h"
#include "cpu/rope/rope_common.h"
#include "cpu/rope/rope_tiers.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

template <class St>
void RotateHeads(const Tensor& t, int64_t token, int64_t first, int64_t second, float c, float s) {
  for (int64_t head = 0; head < t.shape[1]; ++head) {
    const int64_t off = token * t.stride[0] + head * t.stride[1];
    const float x = St::Load(t.data, off + first);
    const float y = St::Load(t.data, off + second);
    St::Store(t.data, off + first, x * c - y * s);
    St::Store(t.data, off + second, x * s + y * c);
  }
}

// The vector tiers: per token, every head row of q (then k) is rotated with
// the token's cos/sin row. Without mrope that is the cache row itself, read at
// its dtype; with mrope each pair's value comes from its axis's position, so
// the token's values are gathered (widened exactly) into an f32 row first.
void RopeFromCacheTier(const ExecContext& ctx, Isa tier, const Tensor& q, const Tensor* k,
                       const Tensor& positions, const Tensor& cache, const RopeArgs& args) {
  const int64_t tokens = q.shape[0];
  const int64_t rot = args.rotary_dim, half = rot / 2;
  const bool mrope = positions.rank == 2;
  const int64_t es = q.ElementSize();
  RopeRowsJob job;
  job.bf16 = q.dtype == DType::kBF16;
  job.neox = args.is_neox_style;
  job.half = half;
  const auto* cache_b = static_cast<const unsigned char*>(cache.data);
  ParallelForRows(ctx, tokens, [&](int64_t r0, int64_t r1) {
    CountTierRun(tier);
    std::vector<float> gathered(mrope ? static_cast<size_t>(rot) : 0);
    for (int64_t token = r0; token < r1; ++token) {
      RopeRowsJob jt = job;
      if (mrope) {
        for (int64_t pair = 0; pair < half; ++pair) {
          const int64_t at = rope::PositionAt(positions, rope::MropeAxis(pair, args) * tokens + token) * rot;
          gathered[static_cast<size_t>(pair)] = LoadF32(cache, at + pair);
          gathered[static_cast<size_t>(half + pair)] = LoadF32(cache, at + half + pair);
        }
        jt.c = gathered.data(), jt.s = gathered.data() + half, jt.cs_bf16 = false;
      } else {
        const int64_t at = rope::PositionAt(positions, token) * rot;
        jt.c = cache_b + at * es, jt.s = cache_b + (at + half) * es, jt.cs_bf16 = job.bf16;
      }
      RopeRowsOn(tier, jt, static_cast<unsigned char*>(q.data) + token * q.stride[0] * es, q.shape[1],
                 q.stride[1] * es);
      if (k != nullptr) {
        RopeRowsOn(tier, jt, static_cast<unsigned char*>(k->data) + token * k->stride[0] * es, k->shape[1],
                   k->stride[1] * es);
      }
    }
  });
}

void RopeFromCacheCpu(const ExecContext& ctx, const Tensor& q, const Tensor* k, const Tensor& positions,
                      const Tensor& cache, const RopeArgs& args) {
  static const std::vector<Isa> kTiers = OpTiers("rope_from_cache");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);
  if (tier != Isa::kPortable) {
    RopeFromCacheTier(ctx, tier, q, k, positions, cache, args);
    return;
  }
  const int64_t tokens = q.shape[0];
  const int64_t rot = args.rotary_dim, half = rot / 2;
  const bool mrope = positions.rank == 2;
  WithFloatOutElem(q.dtype, [&](auto storage) {
    using St = decltype(storage);
    ParallelForRows(ctx, tokens, [&](int64_t r0, int64_t r1) {
      CountTierRun(Isa::kPortable);
      for (int64_t token = r0; token < r1; ++token) {
        for (int64_t pair = 0; pair < half; ++pair) {
          const int64_t row = mrope ? rope::MropeAxis(pair, args) * tokens + token : token;
          const int64_t at = rope::PositionAt(positions, row) * rot;
          const float c = St::Load(cache.data, at + pair);
          const float s = St::Load(cache.data, at + half + pair);
          const int64_t first = args.is_neox_style ? pair : 2 * pair;
          const int64_t second = args.is_neox_style ? pair + half : 2 * pair + 1;
          RotateHeads<St>(q, token, first, second, c, s);
          if (k != nullptr) RotateHeads<St>(*k, token, first, second, c, s);
        }
      }
    });
  });
}

}  // namespace

void Register_rope_from_cache() {
  RegisterTyped<kernel::RopeFromCacheFn>("rope_from_cache", Backend::kCPU, &RopeFromCacheCpu);
}

}  // namespace vt::cpu
