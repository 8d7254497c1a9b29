// Dispatch of the NVFP4 quantizer tiers (portable code: the tier bodies live
// in fp4_row_avx512.cpp / fp4_row_avx2.cpp).
#include "cpu/quant/fp4_tiers.h"

#include <array>

#include "cpu/simd/target.h"
#include "vt/codec.h"

namespace vt::cpu {

const float* Fp8E4M3Values() {
  static const std::array<float, 256> kValues = [] {
    std::array<float, 256> v{};
    for (int c = 0; c < 256; ++c) v[static_cast<size_t>(c)] = Fp8E4M3ToF32(static_cast<uint8_t>(c));
    return v;
  }();
  return kValues.data();
}

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
