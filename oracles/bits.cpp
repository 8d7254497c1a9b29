// Decode and encode by value: every finite code is (-1)^s * 2^(e-bias) *
// (1 + m/2^M) for a nonzero exponent field e and (-1)^s * 2^(1-bias) * m/2^M
// for e = 0. Encoding finds e and m from the rounded value with ilogb and
// exact power-of-two scalings; no step copies the kernels' bit tricks.
#include "oracles/bits.h"

#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace vt::oracle {
namespace {

enum class Specials {
  kIeee,   // exponent field all ones: inf (mantissa 0) or NaN
  kFnNan,  // e4m3fn: only all-ones exponent and mantissa is NaN; no inf
  kNone,   // e2m1: every code is finite
};

struct Layout {
  int exp_bits;
  int mant_bits;
  int bias;
  Specials specials;
};

Layout LayoutOf(Fmt f) {
  switch (f) {
    case Fmt::kF32: return {8, 23, 127, Specials::kIeee};
    case Fmt::kF16: return {5, 10, 15, Specials::kIeee};
    case Fmt::kBF16: return {8, 7, 127, Specials::kIeee};
    case Fmt::kFp8E4M3: return {4, 3, 7, Specials::kFnNan};
    case Fmt::kFp4E2M1: return {2, 1, 1, Specials::kNone};
  }
  throw std::logic_error("unknown Fmt");
}

uint32_t Ones(int n) { return (1u << n) - 1u; }

constexpr int kDoubleMantBits = 52;
constexpr uint64_t kDoubleExpAllOnes = 0x7FFull << kDoubleMantBits;

// A double NaN holding `payload` (M bits) at the top of its mantissa.
double NanWithPayload(bool negative, uint32_t payload, int mant_bits) {
  const uint64_t bits = (negative ? (1ull << 63) : 0) | kDoubleExpAllOnes |
                        (static_cast<uint64_t>(payload) << (kDoubleMantBits - mant_bits));
  return std::bit_cast<double>(bits);
}

// The pattern a NaN encodes to (see bits.h).
uint32_t NanPattern(const Layout& l, double x) {
  if (l.specials == Specials::kFnNan) return 0x7F;
  if (l.specials == Specials::kNone) return 0x7;  // +6: the spec's fall-through
  const uint64_t d = std::bit_cast<uint64_t>(x);
  const uint32_t sign = static_cast<uint32_t>(d >> 63) << (l.exp_bits + l.mant_bits);
  const uint32_t top = static_cast<uint32_t>((d >> (kDoubleMantBits - l.mant_bits)) & Ones(l.mant_bits));
  const uint32_t quiet = 1u << (l.mant_bits - 1);
  return sign | (Ones(l.exp_bits) << l.mant_bits) | quiet | top;
}

}  // namespace

double DecodeBits(Fmt fmt, uint32_t bits) {
  const Layout l = LayoutOf(fmt);
  const bool negative = ((bits >> (l.exp_bits + l.mant_bits)) & 1u) != 0;
  const uint32_t e = (bits >> l.mant_bits) & Ones(l.exp_bits);
  const uint32_t m = bits & Ones(l.mant_bits);
  const bool top_exp = e == Ones(l.exp_bits);
  if (l.specials == Specials::kIeee && top_exp) {
    if (m != 0) return NanWithPayload(negative, m, l.mant_bits);
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  }
  if (l.specials == Specials::kFnNan && top_exp && m == Ones(l.mant_bits)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  // Subnormal: no implicit one, the smallest normal's exponent 1 - bias.
  const double significand = e == 0 ? m : std::ldexp(1.0, l.mant_bits) + m;
  const int exponent = (e == 0 ? 1 : static_cast<int>(e)) - l.bias - l.mant_bits;
  const double mag = std::ldexp(significand, exponent);
  return negative ? -mag : mag;
}

uint32_t EncodeBits(Fmt fmt, double x) {
  const Layout l = LayoutOf(fmt);
  if (std::isnan(x)) return NanPattern(l, x);
  const double r = RoundReal(fmt, x);  // a value of the format (or +-inf)
  const double a = std::fabs(r);
  uint32_t e = 0, m = 0;
  if (std::isinf(a)) {
    e = Ones(l.exp_bits);  // only IEEE formats reach here: RoundReal saturates the others
  } else if (a != 0.0) {
    const int min_exp = 1 - l.bias;
    const int k = std::ilogb(a);
    if (k < min_exp) {
      m = static_cast<uint32_t>(std::ldexp(a, l.mant_bits - min_exp));  // a / quantum, exact
    } else {
      e = static_cast<uint32_t>(k + l.bias);
      m = static_cast<uint32_t>(std::ldexp(a, l.mant_bits - k)) - (1u << l.mant_bits);
    }
  }
  uint32_t code = (e << l.mant_bits) | m;
  // fp4's zero is unsigned by the spec; every other format keeps -0.
  const bool signed_zero_ok = l.specials != Specials::kNone || code != 0;
  if (std::signbit(r) && signed_zero_ok) code |= 1u << (l.exp_bits + l.mant_bits);
  return code;
}

}  // namespace vt::oracle
