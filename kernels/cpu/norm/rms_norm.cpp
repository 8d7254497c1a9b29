// rms_norm CPU kernel. Contract (validated by vt::RmsNorm): x/out/residual
// contiguous [T,H], weight [H], H > 0. Work split: output rows; each row's f32
// sum of squares stays on one thread, so bytes do not depend on threads.
// Tiers: portable (below, the reference), avx2 and avx512 (norm_tiers.h: the
// same per-row chain, kLanes rows side by side; the same bytes).
#include "api/kernel_types.h"
#include "cpu/norm/norm_rows.h"
#include "cpu/norm/norm_tiers.h"
#include "cpu/simd/target.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void RmsNormCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& w,
                const RmsNormArgs& args, const Tensor* residual) {
  const int64_t rows = x.shape[0], h = x.shape[1];
  static const std::vector<Isa> kTiers = OpTiers("rms_norm");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);
  if (tier != Isa::kPortable) {
    NormRowsJob job;
    job.x = x.data, job.x_dt = x.dtype;
    if (residual != nullptr) job.residual = residual->data, job.res_dt = residual->dtype;
    job.out = out.data, job.out_dt = out.dtype;
    job.w = w.data, job.w_dt = w.dtype, job.gemma = args.gemma;
    job.h = h, job.eps = args.eps, job.mean = true;
    job.stream_out = out.Numel() * static_cast<int64_t>(SizeOf(out.dtype)) >= kStreamOutBytes;
    RunNormTier(ctx, tier, job, rows);
    return;
  }
  ParallelForRows(ctx, rows, [&](int64_t r0, int64_t r1) {
    CountTierRun(Isa::kPortable);
    for (int64_t i = r0; i < r1; ++i) {
      const int64_t base = i * h;
      const float inv = RmsRowInv(x, residual, base, h, args.eps);
      for (int64_t j = 0; j < h; ++j) {
        StoreF32(out, base + j, RmsRowValue(x, residual, base + j) * inv * RmsWeight(w, j, args.gemma));
      }
    }
  });
}

}  // namespace

void Register_rms_norm() { RegisterTyped<kernel::RmsNormFn>("rms_norm", Backend::kCPU, &RmsNormCpu); }

}  // namespace vt::cpu
