// The avx512 tier of the delta-rule head step: delta_panel.inc over the V512
// traits (16 value rows in lanes), compiled for avx512 inside its target region
// (cpu/simd/target.h).
#include "cpu/gdn/delta_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>

VT_TARGET_AVX512_BEGIN
#include "cpu/simd/vec_avx512.h"
#include "cpu/gdn/delta_panel.inc"

namespace vt::cpu::gdn::avx512 {

void DeltaHold(const float* s, int64_t dk, int64_t dv, float* t) { simd::delta::Hold<simd::V512>(s, dk, dv, t); }
void DeltaPut(const float* t, int64_t dk, int64_t dv, float* s) { simd::delta::Put<simd::V512>(t, dk, dv, s); }
void DeltaStep(const DeltaStepJob& job) { simd::delta::Step<simd::V512>(job); }
void DeltaStepOnce(const DeltaStepJob& job, float* s) { simd::delta::StepOnce<simd::V512>(job, s); }

}  // namespace vt::cpu::gdn::avx512
VT_TARGET_END
#endif
