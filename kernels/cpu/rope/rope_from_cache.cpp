// rope_from_cache CPU kernel. Contract (validated by vt::RopeFromCache): q
// [T,Hq,D] and optional k [T,Hk,D] share the cache's dtype (f32/bf16), inner
// dim packed, token/head strides non-overlapping; positions [T] or [3,T]
// i32/i64 contiguous, every entry in [0, P); cache [P,rot] contiguous; rot
// even, <= D; mrope sections sum to rot/2. In place.
// Per (token, pair): c = cache[p][pair], s = cache[p][rot/2 + pair] (read at
// the cache's dtype, widened to f32); each head's pair (x, y) becomes
// (x*c - y*s, x*s + y*c) in f32, stored at q's dtype. Pairs are (i, i+rot/2)
// (NeoX) or (2i, 2i+1) (GPT-J). Split: tokens; every element is written once.
#include "api/kernel_types.h"
#include "cpu/rope/rope_common.h"
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

void RopeFromCacheCpu(const ExecContext& ctx, const Tensor& q, const Tensor* k, const Tensor& positions,
                      const Tensor& cache, const RopeArgs& args) {
  const int64_t tokens = q.shape[0];
  const int64_t rot = args.rotary_dim, half = rot / 2;
  const bool mrope = positions.rank == 2;
  WithFloatOutElem(q.dtype, [&](auto storage) {
    using St = decltype(storage);
    ParallelForRows(ctx, tokens, [&](int64_t r0, int64_t r1) {
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
