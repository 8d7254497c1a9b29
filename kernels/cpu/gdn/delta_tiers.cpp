// Dispatch of the delta-rule head step's tiers (portable code: the tier bodies
// live in delta_panel_avx512.cpp / delta_panel_avx2.cpp).
#include "cpu/gdn/delta_tiers.h"

#include "cpu/simd/target.h"

namespace vt::cpu::gdn {

void DeltaHeadOn(Isa tier, const DeltaHeadJob& job) {
#if VT_X86_TIERS
  if (tier == Isa::kAvx512) {
    avx512::DeltaHead(job);
  } else {
    avx2::DeltaHead(job);
  }
#else
  (void)tier, (void)job;  // unreachable: no x86 tier is supported here
#endif
}

}  // namespace vt::cpu::gdn
