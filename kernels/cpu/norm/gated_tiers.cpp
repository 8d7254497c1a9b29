// Dispatch of the rms_norm_gated tier (portable code: the tier body lives in
// gated_rows_avx512.cpp).
#include "cpu/norm/gated_tiers.h"

#include "cpu/norm/norm_tiers.h"
#include "cpu/simd/target.h"
#include "vt/threadpool.h"

namespace vt::cpu {

void RunGatedTier(const ExecContext& ctx, const GatedRowsJob& job, int64_t rows) {
#if VT_X86_TIERS
  const int lanes = avx512::kLanes;
  const int64_t panels = (rows + lanes - 1) / lanes;
  ParallelForRows(ctx, panels, [&](int64_t p0, int64_t p1) {
    CountTierRun(Isa::kAvx512);
    for (int64_t p = p0; p < p1; ++p) {
      const int64_t r0 = p * lanes;
      avx512::GatedPanel(job, r0, static_cast<int>(rows - r0 < lanes ? rows - r0 : lanes));
    }
  });
#else
  (void)ctx, (void)job, (void)rows;  // unreachable: no x86 tier is supported here
#endif
}

}  // namespace vt::cpu
