// The avx2 tier of the delta-rule head step: delta_panel.inc over the V256
// traits (8 value rows in lanes), compiled for avx2 inside its target region
// (cpu/simd/target.h).
#include "cpu/gdn/delta_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>

VT_TARGET_AVX2_BEGIN
#include "cpu/simd/vec_avx2.h"
#include "cpu/gdn/delta_panel.inc"

namespace vt::cpu::gdn::avx2 {

void DeltaHold(const float* s, int64_t dk, int64_t dv, float* t) { simd::delta::Hold<simd::V256>(s, dk, dv, t); }
void DeltaPut(const float* t, int64_t dk, int64_t dv, float* s) { simd::delta::Put<simd::V256>(t, dk, dv, s); }
void DeltaStep(const DeltaStepJob& job) { simd::delta::Step<simd::V256>(job); }
void DeltaStepOnce(const DeltaStepJob& job, float* s) { simd::delta::StepOnce<simd::V256>(job, s); }

}  // namespace vt::cpu::gdn::avx2
VT_TARGET_END
#endif
