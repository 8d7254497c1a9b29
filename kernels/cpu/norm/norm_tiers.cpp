// Dispatch of the row-norm tiers (portable code: the tier bodies live in
// norm_panel_avx512.cpp / norm_panel_avx2.cpp).
#include "cpu/norm/norm_tiers.h"

#include "cpu/simd/target.h"
#include "vt/threadpool.h"

namespace vt::cpu {

void RunNormTier(const ExecContext& ctx, Isa tier, const NormRowsJob& job_in, int64_t rows,
                 const std::function<void(int64_t, int)>& after_panel) {
#if VT_X86_TIERS
  const int lanes = NormLanes(tier);
  const int64_t panels = (rows + lanes - 1) / lanes;
  NormRowsJob job = job_in;
  job.prefetch = panels > 1;
  ParallelForRows(ctx, panels, [&](int64_t p0, int64_t p1) {
    CountTierRun(tier);
    float inv[avx512::kLanes];
    for (int64_t p = p0; p < p1; ++p) {
      const int64_t r0 = p * lanes;
      const int nr = static_cast<int>(rows - r0 < lanes ? rows - r0 : lanes);
      NormPanelOn(tier, job, r0, nr, inv);
      if (after_panel) after_panel(r0, nr);
    }
  });
#else
  (void)ctx, (void)tier, (void)job_in, (void)rows, (void)after_panel;  // unreachable: no x86 tier is supported here
#endif
}

int NormLanes(Isa tier) {
#if VT_X86_TIERS
  return tier == Isa::kAvx512 ? avx512::kLanes : avx2::kLanes;
#else
  (void)tier;
  return 1;  // unreachable: no x86 tier is supported here
#endif
}

void NormPanelOn(Isa tier, const NormRowsJob& job, int64_t r0, int nr, float* inv) {
#if VT_X86_TIERS
  if (tier == Isa::kAvx512) {
    avx512::NormPanel(job, r0, nr, inv);
  } else {
    avx2::NormPanel(job, r0, nr, inv);
  }
#else
  (void)tier, (void)job, (void)r0, (void)nr, (void)inv;  // unreachable: no x86 tier is supported here
#endif
}

}  // namespace vt::cpu
