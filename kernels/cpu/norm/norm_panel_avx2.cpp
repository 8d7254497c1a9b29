// The avx2 tier of the row norms: norm_panel.inc over the V256 traits,
// compiled for avx2 inside its target region (cpu/simd/target.h).
#include "cpu/norm/norm_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

VT_TARGET_AVX2_BEGIN
#include "cpu/simd/vec_avx2.h"
#include "cpu/norm/norm_panel.inc"

namespace vt::cpu::avx2 {

void NormPanel(const NormRowsJob& job, int64_t r0, int nr, float* inv) {
  simd::NormPanelT<simd::V256>(job, r0, nr, inv);
}

}  // namespace vt::cpu::avx2
VT_TARGET_END
#endif
