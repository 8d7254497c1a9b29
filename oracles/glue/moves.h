// What the glue ops do to one element's bit pattern, from the spec's
// conversion rules (op-contracts 1.4), built on the oracle-side codecs
// (oracles/bits.h), never on the kernels'. The glue oracles themselves are
// moves, generic over the element (a value, or a bit pattern); these rules
// say what a moved pattern becomes in its destination dtype.
#pragma once

#include <cmath>
#include <cstdint>

#include "oracles/bits.h"

namespace vt::oracle {

// The f32 pattern a float of `from` widens to. Exact; a NaN keeps its sign
// and payload (f16 mantissa shifted left 13, bf16 left 16) and a signalling
// NaN stays signalling: widening is a bit operation, not an arithmetic one.
inline uint32_t WidenToF32Bits(Fmt from, uint32_t bits) {
  if (from == Fmt::kF32) return bits;
  const double v = DecodeBits(from, bits);
  if (!std::isnan(v)) return EncodeBits(Fmt::kF32, v);  // every f16/bf16 value is an f32
  if (from == Fmt::kBF16) return (bits & 0xFFFFu) << 16;
  return ((bits & 0x8000u) << 16) | 0x7F800000u | ((bits & 0x3FFu) << 13);  // f16
}

// The pattern a float of `from` holds after the seed's move: load (widen to
// f32), store to `to` (round to nearest even; a NaN keeps its sign and top
// payload bits and gets the quiet bit: EncodeBits's NaN rule). An f32 -> f32
// move keeps every pattern; bf16 -> bf16 and f16 -> f16 quiet a signalling NaN.
inline uint32_t ThroughF32Bits(Fmt from, Fmt to, uint32_t bits) {
  const uint32_t wide = WidenToF32Bits(from, bits);
  if (to == Fmt::kF32) return wide;
  return EncodeBits(to, DecodeBits(Fmt::kF32, wide));
}

}  // namespace vt::oracle
