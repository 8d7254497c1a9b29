// The block-scale byte of the NVFP4 quantizer tiers without libm calls:
// F32ToFp8E4M3's result for every f32 (checked on all 2^32 inputs, see
// docs/isa.md), by integer rounding of the f32 bits. Internal linkage (an
// anonymous namespace): each tier's copy stays in its own target region.
#pragma once

#include <cstdint>

#include "vt/codec.h"

namespace vt::cpu::fp4 {
namespace {

// bits: the f32's bit pattern.
//  - NaN: 0x7F (no sign, as the codec); |f| >= 448 (inf too): sign | 0x7E.
//  - |f| < 2^-6 (the e4m3 subnormal range): the codec itself (rare: a tiny
//    scale), whose nearbyint(|f| * 512) the integer path does not restate.
//  - else the e4m3 normal: round the f32's exponent and top 3 mantissa bits
//    to nearest even on the 20 bits below them (a carry moves into the
//    exponent, as the codec's 16 units do) and rebase the exponent from 127
//    to 7: ((bits >> 20) rounded) - (120 << 3).
inline uint8_t ScaleCodeFromBits(uint32_t bits, float f) {
  const uint32_t sign = (bits >> 24) & 0x80u;
  const uint32_t a = bits & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return 0x7F;
  if (a >= 0x43E00000u) return static_cast<uint8_t>(sign | 0x7Eu);  // 448 = 1.75 * 2^8
  if (a < 0x3C800000u) return F32ToFp8E4M3(f);                      // 2^-6
  const uint32_t r = (a + 0x7FFFFu + ((a >> 20) & 1u)) >> 20;
  return static_cast<uint8_t>(sign | (r - (120u << 3)));
}

}  // namespace
}  // namespace vt::cpu::fp4
