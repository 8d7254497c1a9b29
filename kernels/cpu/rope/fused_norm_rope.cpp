// fused_norm_rope CPU kernel (DeepSeek MLA kv_a prologue). Contract
// (validated by vt::FusedNormRope): x [T, off+rot], latent_out [T,off],
// pe_out [T,rot] inner-packed with free (non-overlapping) row strides; weight
// [off]; cache [P,rot]; all one dtype (f32/bf16); positions [T] in [0, P).
// Per token row: latent = rms_norm(x[:, :off]) exactly as the rms_norm kernel
// (sequential f32 sum of squares, inv = 1/sqrt(sum/off + eps), (v*inv)*w');
// pe = rope_from_cache of x[:, off:] as one head (x*c - y*s, x*s + y*c).
// The two halves touch disjoint dims, so this is the composite's arithmetic
// in one pass. Split: tokens.
#include <cmath>

#include "api/kernel_types.h"
#include "cpu/rope/rope_common.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void FusedNormRopeCpu(const ExecContext& ctx, const Tensor& latent_out, const Tensor& pe_out, const Tensor& x,
                      const Tensor& w, const Tensor& positions, const Tensor& cache, const RmsNormArgs& na,
                      const RopeArgs& ra) {
  const int64_t off = w.shape[0], rot = ra.rotary_dim, half = rot / 2;
  WithFloatOutElem(x.dtype, [&](auto storage) {
    using St = decltype(storage);
    ParallelForRows(ctx, x.shape[0], [&](int64_t r0, int64_t r1) {
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
