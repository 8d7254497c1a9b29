// Dispatch of the elementwise product tiers (portable code: the tier bodies
// live in scale_span_avx512.cpp / scale_span_avx2.cpp).
#include "cpu/act/scale_tiers.h"

#include "cpu/simd/target.h"

namespace vt::cpu {

void ScaleSpanOn(Isa tier, const ScaleJob& job, const void* x, void* out, int64_t n) {
#if VT_X86_TIERS
  if (tier == Isa::kAvx512) {
    avx512::ScaleSpan(job, x, out, n);
  } else {
    avx2::ScaleSpan(job, x, out, n);
  }
#else
  (void)tier, (void)job, (void)x, (void)out, (void)n;  // unreachable: no x86 tier is supported here
#endif
}

}  // namespace vt::cpu
