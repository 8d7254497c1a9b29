// The avx512 tier of the row norms: norm_panel.inc over the V512 traits,
// compiled for avx512 inside its target region (cpu/simd/target.h).
#include "cpu/norm/norm_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

VT_TARGET_AVX512_BEGIN
#include "cpu/simd/vec_avx512.h"
#include "cpu/norm/norm_panel.inc"

namespace vt::cpu::avx512 {

void NormPanel(const NormRowsJob& job, int64_t r0, int nr, float* inv) {
  simd::NormPanelT<simd::V512>(job, r0, nr, inv);
}

}  // namespace vt::cpu::avx512
VT_TARGET_END
#endif
