// Dispatch of the delta-rule head step's tiers (portable code: the tier bodies
// live in delta_panel_avx512.cpp / delta_panel_avx2.cpp).
#include "cpu/gdn/delta_tiers.h"

#include "cpu/simd/target.h"

namespace vt::cpu::gdn {

#if VT_X86_TIERS
#define VT_DELTA_ON(fn, ...)    \
  if (tier == Isa::kAvx512) {   \
    avx512::fn(__VA_ARGS__);    \
  } else {                      \
    avx2::fn(__VA_ARGS__);      \
  }
#else  // unreachable: no x86 tier is supported here
#define VT_DELTA_ON(fn, ...) (void)tier;
#endif

void DeltaHoldOn(Isa tier, const float* s, int64_t dk, int64_t dv, float* t) { VT_DELTA_ON(DeltaHold, s, dk, dv, t) }
void DeltaPutOn(Isa tier, const float* t, int64_t dk, int64_t dv, float* s) { VT_DELTA_ON(DeltaPut, t, dk, dv, s) }
void DeltaStepOn(Isa tier, const DeltaStepJob& job) { VT_DELTA_ON(DeltaStep, job) }
void DeltaStepOnceOn(Isa tier, const DeltaStepJob& job, float* s) { VT_DELTA_ON(DeltaStepOnce, job, s) }

#undef VT_DELTA_ON

}  // namespace vt::cpu::gdn
