// mul_scalar CPU kernel: out[i] = x[i] * s (s is the f32 value of the scalar).
// Contract: same shape, contiguous. Split: flat elements. Tiers: portable
// (below, the reference), avx2 and avx512 (scale_tiers.h, the same bytes;
// blocks of kScaleBlock elements).
#include <algorithm>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "cpu/act/scale_tiers.h"
#include "cpu/simd/target.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void MulScalarCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x, float s) {
  static const std::vector<Isa> kTiers = OpTiers("mul_scalar");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);
  if (tier != Isa::kPortable) {
    const int64_t n = x.Numel();
    ScaleJob job;
    job.x_dt = x.dtype, job.out_dt = out.dtype, job.s = s;
    job.stream_out = n * static_cast<int64_t>(SizeOf(out.dtype)) >= kStreamOutBytes;
    const auto* xb = static_cast<const unsigned char*>(x.data);
    auto* ob = static_cast<unsigned char*>(out.data);
    ParallelForRows(ctx, (n + kScaleBlock - 1) / kScaleBlock, [&](int64_t b0, int64_t b1) {
      CountTierRun(tier);
      const int64_t e0 = b0 * kScaleBlock, e1 = std::min(b1 * kScaleBlock, n);
      ScaleSpanOn(tier, job, xb + e0 * x.ElementSize(), ob + e0 * out.ElementSize(), e1 - e0);
    });
    return;
  }
  ParallelForRows(ctx, x.Numel(), [&](int64_t r0, int64_t r1) {
    CountTierRun(Isa::kPortable);
    for (int64_t i = r0; i < r1; ++i) StoreF32(out, i, LoadF32(x, i) * s);
  });
}

}  // namespace

void Register_mul_scalar() {
  RegisterTyped<kernel::ScalarUnaryFn>("mul_scalar", Backend::kCPU, &MulScalarCpu);
}

}  // namespace vt::cpu
