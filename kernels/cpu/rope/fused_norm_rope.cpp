// fused_norm_rope CPU kernel (DeepSeek MLA kv_a prologue). Contract
// (validated by vt::FusedNormRope): x [T, off+rot], latent_out [T,off],
// pe_out [T,rot] inner-packed with free (non-overlapping) row strides; weight
// [off]; cache [P,rot]; all one dtype (f32/bf16); positions [T] in [0, P).
// Per token row: latent = rms_norm(x[:, :off]) exactly as the rms_norm kernel
// (sequential f32 sum of squares, inv = 1/sqrt(sum/off + eps), (v*inv)*w');
// pe = rope_from_cache of x[:, off:] as one head (x*c - y*s, x*s + y*c).
// The two halves touch disjoint dims, so this is the composite's arithmetic
// in one pass. Split: tokens.
// Tiers: portable (below, the reference), avx2 and avx512: the latent half
// through the row-norm panel (norm_tiers.h: kLanes rows' sequential sums in
// lanes, row stride = x's), the rope half copied to pe_out and rotated there
// in place by rope_rows (rope_tiers.h) - the same operations per element.
#include <cmath>
#include <cstring>
#include <vector>

#include "api/kernel_types.h"
#include "cpu/norm/norm_tiers.h"
#include "cpu/rope/rope_common.h"
#include "cpu/rope/rope_tiers.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

// The vector tiers: the norm's panels of kLanes token rows split over the
// pool (RunNormTier); after each panel, per token of it, the rope half's
// bytes are copied to pe_out unchanged (same dtype: the portable tier's
// load-then-rotate reads the same values there) and rotated in place with the
// token's cache row.
void FusedNormRopeTier(const ExecContext& ctx, Isa tier, const Tensor& latent_out, const Tensor& pe_out,
                       const Tensor& x, const Tensor& w, const Tensor& positions, const Tensor& cache,
                       const RmsNormArgs& na, const RopeArgs& ra) {
  const int64_t tokens = x.shape[0], off = w.shape[0], rot = ra.rotary_dim, es = x.ElementSize();
  NormRowsJob nj;
  nj.x = x.data, nj.x_dt = x.dtype, nj.x_ld = x.stride[0];
  nj.out = latent_out.data, nj.out_dt = latent_out.dtype, nj.out_ld = latent_out.stride[0];
  nj.w = w.data, nj.w_dt = w.dtype, nj.gemma = na.gemma;
  nj.h = off, nj.eps = na.eps, nj.mean = true;
  RopeRowsJob rj;
  rj.bf16 = x.dtype == DType::kBF16, rj.cs_bf16 = rj.bf16;
  rj.neox = ra.is_neox_style, rj.half = rot / 2;
  const auto* xb = static_cast<const unsigned char*>(x.data);
  const auto* cb = static_cast<const unsigned char*>(cache.data);
  auto* pb = static_cast<unsigned char*>(pe_out.data);
  RunNormTier(ctx, tier, nj, tokens, [&](int64_t r0, int nr) {
    for (int64_t i = r0; i < r0 + nr; ++i) {
      unsigned char* pe = pb + i * pe_out.stride[0] * es;
      std::memmove(pe, xb + (i * x.stride[0] + off) * es, static_cast<size_t>(rot * es));
      const int64_t at = rope::PositionAt(positions, i) * rot;
      RopeRowsJob jt = rj;
      jt.c = cb + at * es, jt.s = cb + (at + rot / 2) * es;
      RopeRowsOn(tier, jt, pe, 1, 0);
    }
  });
}

void FusedNormRopeCpu(const ExecContext& ctx, const Tensor& latent_out, const Tensor& pe_out, const Tensor& x,
                      const Tensor& w, const Tensor& positions, const Tensor& cache, const RmsNormArgs& na,
                      const RopeArgs& ra) {
  static const std::vector<Isa> kTiers = OpTiers("fused_norm_rope");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);
  if (tier != Isa::kPortable) {
    FusedNormRopeTier(ctx, tier, latent_out, pe_out, x, w, positions, cache, na, ra);
    return;
  }
  const int64_t off = w.shape[0], rot = ra.rotary_dim, half = rot / 2;
  WithFloatOutElem(x.dtype, [&](auto storage) {
    using St = decltype(storage);
    ParallelForRows(ctx, x.shape[0], [&](int64_t r0, int64_t r1) {
      CountTierRun(Isa::kPortable);
      for (int64_t i = r0; i < r1; ++i) {
        const int64_t xb = i * x.stride[0], lb = i * latent_out.stride[0], pb = i * pe_out.stride[0];
        float sumsq = 0.0f;
        for (int64_t j = 0; j < off; ++j) {
          const float v = St::Load(x.data, xb + j);
          sumsq += v * v;
        }
        const float inv = 1.0f / std::sqrt(sumsq / static_cast<float>(off) + na.eps);
        for (int64_t j = 0; j < off; ++j) {
          float wj = St::Load(w.data, j);
          if (na.gemma) wj += 1.0f;
          St::Store(latent_out.data, lb + j, St::Load(x.data, xb + j) * inv * wj);
        }
        const int64_t at = rope::PositionAt(positions, i) * rot;
        for (int64_t pair = 0; pair < half; ++pair) {
          const float c = St::Load(cache.data, at + pair);
          const float s = St::Load(cache.data, at + half + pair);
          const int64_t first = ra.is_neox_style ? pair : 2 * pair;
          const int64_t second = ra.is_neox_style ? pair + half : 2 * pair + 1;
          const float xr = St::Load(x.data, xb + off + first);
          const float yr = St::Load(x.data, xb + off + second);
          St::Store(pe_out.data, pb + first, xr * c - yr * s);
          St::Store(pe_out.data, pb + second, xr * s + yr * c);
        }
      }
    });
  });
}

}  // namespace

void Register_fused_norm_rope() {
  RegisterTyped<kernel::FusedNormRopeFn>("fused_norm_rope", Backend::kCPU, &FusedNormRopeCpu);
}

}  // namespace vt::cpu
