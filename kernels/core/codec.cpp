// Codec implementations. Every function is a pure bit manipulation or an exact
// scaling followed by one nearbyint (default rounding mode = ties to even), so
// results do not depend on compiler flags beyond IEEE conformance.
#include "vt/codec.h"

#include <cmath>
#include <cstring>

namespace vt {
namespace {

uint32_t BitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float FloatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// Shift `value` right by `shift` bits rounding to nearest, ties to even.
uint32_t ShiftRightRne(uint32_t value, int shift) {
  if (shift <= 0) return value;
  if (shift > 31) return 0;  // everything is below half an output unit
  const uint32_t kept = value >> shift;
  const uint32_t rest = value & ((1u << shift) - 1u);
  const uint32_t half = 1u << (shift - 1);
  const bool up = rest > half || (rest == half && (kept & 1u));
  return kept + (up ? 1u : 0u);
}

}  // namespace

uint16_t F32ToF16(float f) {
  const uint32_t x = BitsOf(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t mag = x & 0x7FFFFFFFu;
  if (mag > 0x7F800000u) {  // NaN: keep the top 10 payload bits, force the quiet bit
    return static_cast<uint16_t>(sign | 0x7C00u | 0x0200u | ((mag >> 13) & 0x03FFu));
  }
  const int exp = static_cast<int>(mag >> 23) - 127;
  const uint32_t mant = mag & 0x7FFFFFu;
  if (exp > 15) return static_cast<uint16_t>(sign | 0x7C00u);  // inf or overflow
  if (exp >= -14) {
    // Normal range: drop 13 mantissa bits; a carry out of the mantissa bumps the
    // exponent field, and out of exponent 30 it lands exactly on inf (0x7C00).
    const uint32_t biased = (static_cast<uint32_t>(exp + 15) << 10) | (mant >> 13);
    const uint32_t rest = mant & 0x1FFFu;
    const bool up = rest > 0x1000u || (rest == 0x1000u && (biased & 1u));
    return static_cast<uint16_t>(sign | (biased + (up ? 1u : 0u)));
  }
  if (mag == 0) return sign;
  // Subnormal output: unit 2^-24. The f32 significand (with its implicit bit,
  // or as stored for an f32 subnormal) is worth 2^(e-23) per unit.
  const uint32_t significand = (mag >> 23) ? (mant | 0x800000u) : mant;
  const int e = (mag >> 23) ? exp : -126;
  const int shift = -24 - (e - 23);  // >= 14 here
  return static_cast<uint16_t>(sign | ShiftRightRne(significand, shift));
}

float F16ToF32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  uint32_t mant = h & 0x03FFu;
  if (exp == 0x1Fu) return FloatOf(sign | 0x7F800000u | (mant << 13));  // inf / NaN payload
  if (exp != 0) return FloatOf(sign | ((exp + 112u) << 23) | (mant << 13));
  if (mant == 0) return FloatOf(sign);
  // Subnormal: normalise so the leading one becomes the implicit bit.
  int e = -14;
  while ((mant & 0x0400u) == 0) {
    mant <<= 1;
    --e;
  }
  mant &= 0x03FFu;
  return FloatOf(sign | (static_cast<uint32_t>(e + 127) << 23) | (mant << 13));
}

uint16_t F32ToBF16(float f) {
  const uint32_t x = BitsOf(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) {
    // NaN: truncate (rounding could carry a payload into inf) and force quiet.
    return static_cast<uint16_t>((x >> 16) | 0x0040u);
  }
  const uint32_t lsb = (x >> 16) & 1u;
  return static_cast<uint16_t>((x + 0x7FFFu + lsb) >> 16);
}

float BF16ToF32(uint16_t b) { return FloatOf(static_cast<uint32_t>(b) << 16); }

uint8_t F32ToFp8E4M3(float f) {
  if (std::isnan(f)) return 0x7F;
  const uint8_t sign = std::signbit(f) ? 0x80 : 0x00;
  const double a = std::fabs(static_cast<double>(f));
  if (a >= kFp8E4M3Max) return static_cast<uint8_t>(sign | 0x7E);  // also +-inf
  if (a < 0.015625) {
    // Below the smallest normal 2^-6: multiples of 2^-9. A result of 8 is the
    // smallest normal's code (exponent field 1, mantissa 0), so no special case.
    return static_cast<uint8_t>(sign | static_cast<uint8_t>(std::nearbyint(a * 512.0)));
  }
  int e2 = 0;
  (void)std::frexp(a, &e2);  // a = fr * 2^e2, fr in [0.5, 1)
  const int unbiased = e2 - 1;
  // Significand in units of 2^(unbiased-3): 8..16 after rounding; 16 carries
  // into the exponent field through the addition below.
  const int units = static_cast<int>(std::nearbyint(std::ldexp(a, 3 - unbiased)));
  const int code = ((unbiased + 7) << 3) + (units - 8);
  // a < 448 cannot round past 448 (0x7E), so no second saturation is needed.
  return static_cast<uint8_t>(sign | code);
}

float Fp8E4M3ToF32(uint8_t code) {
  const bool negative = (code & 0x80) != 0;
  const int exp = (code >> 3) & 0xF;
  const int mant = code & 0x7;
  if (exp == 0xF && mant == 0x7) return std::nanf("");
  const double mag = exp == 0 ? std::ldexp(static_cast<double>(mant), -9)
                              : std::ldexp(1.0 + mant / 8.0, exp - 7);
  const float v = static_cast<float>(mag);
  return negative ? -v : v;
}

uint8_t F32ToFp4E2M1(float f) {
  // Thresholds alternate <= and < so that each midpoint goes to the even code.
  const float a = std::fabs(f);
  uint8_t code;
  if (a <= 0.25f) {
    code = 0;
  } else if (a < 0.75f) {
    code = 1;
  } else if (a <= 1.25f) {
    code = 2;
  } else if (a < 1.75f) {
    code = 3;
  } else if (a <= 2.5f) {
    code = 4;
  } else if (a < 3.5f) {
    code = 5;
  } else if (a <= 5.0f) {
    code = 6;
  } else {
    code = 7;  // (5, inf] and NaN, which fails every comparison above
  }
  if (code == 0) return 0;  // never a negative zero
  return static_cast<uint8_t>((f < 0.0f ? 0x8 : 0x0) | code);
}

float Fp4E2M1ToF32(uint8_t nibble) {
  static constexpr float kMagnitude[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  const float v = kMagnitude[nibble & 0x7];
  return (nibble & 0x8) ? -v : v;
}

}  // namespace vt
