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
  // One row (decode) runs the avx2 tier's 256-bit code: its sum is one chain
  // of h dependent adds, and on Intel server cores 512-bit uops close the
  // vector ALUs of port 1, leaving the chain's adds to queue with the lane
  // shuffles on port 5. Measured (rms_norm [1,4096] f32, Emerald Rapids):
  // 2.10x the add chain in 512-bit code, 1.46x in the avx2 tier's. Every
  // tier gives the portable bytes, so the row's bytes do not change.
  if (nr == 1 && IsaSupported(Isa::kAvx2)) {
    avx2::NormPanel(job, r0, nr, inv);
    return;
  }
  simd::NormPanelT<simd::V512>(job, r0, nr, inv);
}

}  // namespace vt::cpu::avx512
VT_TARGET_END
#endif
