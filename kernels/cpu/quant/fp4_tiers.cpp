// Dispatch of the NVFP4 quantizer tiers (portable code: the tier bodies live
// in fp4_row_avx512.cpp / fp4_row_avx2.cpp).
#include "cpu/quant/fp4_tiers.h"

#include "cpu/simd/target.h"

namespace vt::cpu {

void Fp4QuantRowOn(Isa tier, const Fp4RowJob& job, const void* x, uint8_t* packed, uint8_t* scales) {
#if VT_X86_TIERS
  if (tier == Isa::kAvx512) {
    avx512::Fp4QuantRow(job, x, packed, scales);
  } else {
    avx2::Fp4QuantRow(job, x, packed, scales);
  }
#else
  (void)tier, (void)job, (void)x, (void)packed, (void)scales;  // unreachable: no x86 tier is supported here
#endif
}

}  // namespace vt::cpu
