// l2_norm CPU kernel: y = x * (1 / sqrt(sum(x^2) + eps)) over the last dim
// (plain sum, not mean). Contract: x/out contiguous, rank 2 or 3, D > 0.
// Split: rows (all leading dims flattened). Tiers: portable (below), avx2 and
// avx512 (norm_tiers.h, the same bytes).
#include "api/kernel_types.h"
#include "cpu/norm/norm_rows.h"
#include "cpu/norm/norm_tiers.h"
#include "cpu/simd/target.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void L2NormCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x, const L2NormArgs& args) {
  const int64_t d = x.shape[x.rank - 1];
  const int64_t rows = x.Numel() / d;
  static const std::vector<Isa> kTiers = OpTiers("l2_norm");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);
  if (tier != Isa::kPortable) {
    NormRowsJob job;
    job.x = x.data, job.x_dt = x.dtype;
    job.out = out.data, job.out_dt = out.dtype;
    job.h = d, job.eps = args.eps, job.mean = false;
    job.stream_out = out.Numel() * static_cast<int64_t>(SizeOf(out.dtype)) >= kStreamOutBytes;
    RunNormTier(ctx, tier, job, rows);
    return;
  }
  ParallelForRows(ctx, rows, [&](int64_t r0, int64_t r1) {
    CountTierRun(Isa::kPortable);
    for (int64_t r = r0; r < r1; ++r) {
      const float inv = PlainRowInv(x, r * d, d, args.eps, /*mean=*/false);
      for (int64_t j = 0; j < d; ++j) StoreF32(out, r * d + j, LoadF32(x, r * d + j) * inv);
    }
  });
}

}  // namespace

void Register_l2_norm() { RegisterTyped<kernel::L2NormFn>("l2_norm", Backend::kCPU, &L2NormCpu); }

}  // namespace vt::cpu
