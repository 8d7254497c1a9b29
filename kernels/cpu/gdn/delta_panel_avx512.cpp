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

void DeltaHead(const DeltaHeadJob& job) { simd::delta::DeltaHeadT<simd::V512>(job); }

}  // namespace vt::cpu::gdn::avx512
VT_TARGET_END
#endif
