// AttendRow tier support compiled portable: the scalar expf chain that the
// avx2 tier runs for all of pass 2 and the avx512 tier for its tail and for
// blocks off the vector expf's main path.
#include "cpu/attn/attend_tiers.h"

#include <cmath>

#include "cpu/simd/target.h"

namespace vt::cpu {

float ExpChainScalar(float* p, int64_t n, float m, float denom) {
  for (int64_t j = 0; j < n; ++j) {
    p[j] = std::exp(p[j] - m);
    denom += p[j];
  }
  return denom;
}

void RunAttendTier(Isa tier, const AttendJob& job) {
#if VT_X86_TIERS
  if (tier == Isa::kAvx512) {
    avx512::AttendRowTier(job);
  } else {
    avx2::AttendRowTier(job);
  }
#else
  (void)tier, (void)job;  // unreachable: no x86 tier is supported here
#endif
}

}  // namespace vt::cpu
