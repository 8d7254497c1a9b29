// f16 / bf16 codecs (spec op-contracts.md 1.4) against references written here
// from the IEEE 754 definitions, never from the code under test:
//  * decode: sign * 2^(e-bias) * (1 + m/2^M), subnormals m * 2^(emin-M), in double;
//  * encode: |x| held exactly as an integer significand times a power of two,
//    rounded to the target quantum with an explicit integer remainder test.
//
// NaN rule (f32 -> f16 / bf16): the sign and the top M payload bits are kept and
// the target's quiet bit (f16 0x0200, bf16 0x0040) is forced, so a NaN never
// becomes inf and a signalling NaN comes back quiet. Hence the round trip of a
// 16-bit NaN pattern h is h | quiet_bit, and of every other pattern exactly h.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "codec_test_util.h"
#include "vt/codec.h"

namespace {

using vt_test::Bits;
using vt_test::Checker;
using vt_test::FromBits;

// A 16-bit IEEE-style binary format: sign, exp_bits exponent bits with bias
// 2^(exp_bits-1)-1, mant_bits fraction bits, subnormals, inf and NaN.
struct Format {
  const char* name;
  int exp_bits;
  int mant_bits;
  uint16_t quiet_bit;
  uint16_t (*encode)(float);
  float (*decode)(uint16_t);

  int bias() const { return (1 << (exp_bits - 1)) - 1; }
  int emin() const { return 1 - bias(); }  // exponent of the smallest normal
  uint32_t sign_bit() const { return 1u << (exp_bits + mant_bits); }
  uint32_t exp_all_ones() const { return (1u << exp_bits) - 1u; }
  uint32_t inf() const { return exp_all_ones() << mant_bits; }
  uint32_t mant_mask() const { return (1u << mant_bits) - 1u; }
  bool IsNaNPattern(uint32_t h) const {
    return ((h >> mant_bits) & exp_all_ones()) == exp_all_ones() && (h & mant_mask()) != 0;
  }
};

const Format kF16{"f16", 5, 10, 0x0200, &vt::F32ToF16, &vt::F16ToF32};
const Format kBF16{"bf16", 8, 7, 0x0040, &vt::F32ToBF16, &vt::BF16ToF32};

// Decode reference: the value of pattern h as a double (NaN as quiet NaN).
double RefDecode(const Format& f, uint32_t h) {
  const bool neg = (h & f.sign_bit()) != 0;
  const int e = static_cast<int>((h >> f.mant_bits) & f.exp_all_ones());
  const uint32_t m = h & f.mant_mask();
  double v;
  if (e == static_cast<int>(f.exp_all_ones())) {
    v = m == 0 ? INFINITY : NAN;
  } else if (e == 0) {
    v = std::ldexp(static_cast<double>(m), f.emin() - f.mant_bits);
  } else {
    v = std::ldexp(1.0 + std::ldexp(static_cast<double>(m), -f.mant_bits), e - f.bias());
  }
  return neg ? -v : v;
}

// Encode reference: f32 bits x -> target pattern, RNE, IEEE overflow to inf.
uint16_t RefEncode(const Format& f, uint32_t x) {
  const uint32_t sign = (x >> 31) ? f.sign_bit() : 0u;
  const uint32_t e = (x >> 23) & 0xFFu;
  const uint32_t m = x & 0x7FFFFFu;
  if (e == 0xFFu) {
    if (m == 0) return static_cast<uint16_t>(sign | f.inf());
    return static_cast<uint16_t>(sign | f.inf() | f.quiet_bit | (m >> (23 - f.mant_bits)));
  }
  // |x| = sig * 2^q exactly.
  const uint64_t sig = e ? (m | 0x800000u) : m;
  const int q = e ? static_cast<int>(e) - 150 : -149;
  if (sig == 0) return static_cast<uint16_t>(sign);
  const int top = q + static_cast<int>(std::bit_width(sig)) - 1;  // floor(log2 |x|)
  // The target's spacing around |x|: 2^(max(top, emin) - M).
  int qe = std::max(top, f.emin()) - f.mant_bits;
  uint64_t n;  // |x| / 2^qe rounded to nearest, ties to even
  if (q >= qe) {
    n = sig << (q - qe);
  } else {
    const int s = qe - q;
    if (s >= 63) {
      n = 0;  // sig < 2^24 is far below half a quantum
    } else {
      n = sig >> s;
      const uint64_t rem = sig - (n << s);
      const uint64_t half = uint64_t{1} << (s - 1);
      if (rem > half || (rem == half && (n & 1u) != 0)) ++n;
    }
  }
  if (n == 0) return static_cast<uint16_t>(sign);
  const uint64_t hidden = uint64_t{1} << f.mant_bits;
  if (n == 2 * hidden) {  // rounded up into the next binade
    n = hidden;
    ++qe;
  }
  if (n < hidden) return static_cast<uint16_t>(sign | n);  // subnormal (qe is the minimum)
  const int64_t field = qe + f.mant_bits + f.bias();
  if (field >= static_cast<int64_t>(f.exp_all_ones())) return static_cast<uint16_t>(sign | f.inf());
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(field) << f.mant_bits) | (n - hidden));
}

// Every positive f32 pattern within 4 ulps of a rounding boundary of format f
// (a midpoint between adjacent representable values, or the overflow
// threshold), for every f32 binade, plus 5 patterns at each end of every binade.
// `midpoints` receives the boundaries themselves.
std::vector<uint32_t> BoundaryNeighbourhood(const Format& f, std::vector<uint32_t>* midpoints) {
  std::vector<uint32_t> out;
  for (uint32_t e = 0; e <= 0xFFu; ++e) {
    const uint32_t exp_field = e << 23;
    auto add = [&](int64_t v) {  // v: mantissa field, kept inside this binade
      if (v >= 0 && v < (int64_t{1} << 23)) out.push_back(exp_field | static_cast<uint32_t>(v));
    };
    for (int64_t v = 0; v <= 4; ++v) add(v);
    for (int64_t v = (int64_t{1} << 23) - 5; v < (int64_t{1} << 23); ++v) add(v);
    // Target quantum measured in f32 ulps of this binade. Inf/NaN (e == 255)
    // use the normal-range spacing: it tests that the NaN payload is truncated,
    // never rounded, at the same bit positions.
    const int top = e == 0 ? -127 : static_cast<int>(e) - 127;
    const int ulp_exp = e == 0 ? -149 : static_cast<int>(e) - 150;
    const int qe = e == 0xFFu ? ulp_exp + 23 - f.mant_bits : std::max(top, f.emin()) - f.mant_bits;
    const int log2_quantum = qe - ulp_exp;  // >= 1: the target is coarser than f32
    if (log2_quantum > 40) continue;        // quantum far wider than the binade: no midpoint
    if (e != 0xFFu && top > f.bias()) continue;  // all of it overflows to inf: no boundary
    const int64_t quantum = int64_t{1} << log2_quantum;
    // Significand (in f32 ulps) spans [lo, lo + 2^23) for this binade.
    const int64_t lo = e == 0 ? 0 : (int64_t{1} << 23);
    // Midpoints sit at quantum/2 + j*quantum; start at the first one >= lo.
    int64_t first = quantum / 2;
    if (first < lo) first += (lo - first + quantum - 1) / quantum * quantum;
    for (int64_t mid = first; mid < lo + (int64_t{1} << 23); mid += quantum) {
      if (midpoints != nullptr && e != 0xFFu) midpoints->push_back(exp_field | static_cast<uint32_t>(mid - lo));
      for (int64_t d = -4; d <= 4; ++d) add(mid - lo + d);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void CheckEncode(const Format& f, uint32_t x, Checker& c) {
  c.Check(x, 8, RefEncode(f, x), f.encode(FromBits(x)), 4);
}

class NarrowFloatTest : public ::testing::TestWithParam<const Format*> {};

// Decode of all 65,536 patterns against the ldexp formula.
TEST_P(NarrowFloatTest, DecodeAllPatternsMatchFormula) {
  const Format& f = *GetParam();
  Checker c(std::string(f.name) + " decode, all 65536 patterns");
  for (uint32_t h = 0; h <= 0xFFFFu; ++h) {
    const float got = f.decode(static_cast<uint16_t>(h));
    uint32_t want;
    if (f.IsNaNPattern(h)) {
      // Payload and sign preserved bit for bit (spec 1.4: exact, payload kept).
      want = ((h & f.sign_bit()) ? 0x80000000u : 0u) | 0x7F800000u |
             ((h & f.mant_mask()) << (23 - f.mant_bits));
    } else {
      want = Bits(static_cast<float>(RefDecode(f, h)));  // exact: the format fits in f32
    }
    c.Check(h, 4, want, Bits(got), 8);
  }
}

// F32To(ToF32(h)) == h, NaN patterns come back as h | quiet_bit.
TEST_P(NarrowFloatTest, RoundTripAllPatterns) {
  const Format& f = *GetParam();
  Checker c(std::string(f.name) + " round trip, all 65536 patterns");
  int nan_patterns = 0;
  for (uint32_t h = 0; h <= 0xFFFFu; ++h) {
    const uint32_t want = f.IsNaNPattern(h) ? (h | f.quiet_bit) : h;
    nan_patterns += f.IsNaNPattern(h) ? 1 : 0;
    c.Check(h, 4, want, f.encode(f.decode(static_cast<uint16_t>(h))), 4);
  }
  // 2 signs x (2^M - 1) non-zero payloads: makes sure the NaN branch ran.
  EXPECT_EQ(nan_patterns, 2 * ((1 << f.mant_bits) - 1));
}

// Self-test of the encode reference on hand-computed values, so a wrong
// reference cannot agree with a wrong codec by accident.
TEST(NarrowFloatReference, HandComputedValues) {
  EXPECT_EQ(RefEncode(kF16, Bits(1.0f)), 0x3C00);
  EXPECT_EQ(RefEncode(kF16, Bits(-2.0f)), 0xC000);
  EXPECT_EQ(RefEncode(kF16, Bits(65504.0f)), 0x7BFF);
  EXPECT_EQ(RefEncode(kF16, Bits(65519.99f)), 0x7BFF);
  EXPECT_EQ(RefEncode(kF16, Bits(65520.0f)), 0x7C00);   // tie 2047.5 -> even 2048 = 2^16: inf
  EXPECT_EQ(RefEncode(kF16, Bits(0x1p-24f)), 0x0001);   // smallest subnormal
  EXPECT_EQ(RefEncode(kF16, Bits(0x1p-25f)), 0x0000);   // tie 0.5 -> even 0
  EXPECT_EQ(RefEncode(kF16, Bits(0x1.8p-24f)), 0x0002); // tie 1.5 -> even 2
  EXPECT_EQ(RefEncode(kF16, 0x33000001u), 0x0001);      // just above 2^-25
  EXPECT_EQ(RefEncode(kF16, Bits(0x1p-14f)), 0x0400);   // smallest normal
  EXPECT_EQ(RefEncode(kF16, Bits(1.0f + 0x1p-11f)), 0x3C00);  // tie -> even
  EXPECT_EQ(RefEncode(kF16, Bits(1.0f + 0x3p-11f)), 0x3C02);  // tie -> even (up)
  EXPECT_EQ(RefEncode(kF16, 0x7FC00001u), 0x7E00);
  EXPECT_EQ(RefEncode(kF16, 0xFF802000u), 0xFE01);      // signalling payload kept, quieted
  EXPECT_EQ(RefEncode(kBF16, Bits(1.0f)), 0x3F80);
  EXPECT_EQ(RefEncode(kBF16, 0x3F808000u), 0x3F80);     // tie -> even
  EXPECT_EQ(RefEncode(kBF16, 0x3F818000u), 0x3F82);     // tie -> even (up)
  EXPECT_EQ(RefEncode(kBF16, 0x7F7F8000u), 0x7F80);     // past max -> inf
  EXPECT_EQ(RefEncode(kBF16, 0x7F7F7FFFu), 0x7F7F);
  EXPECT_EQ(RefEncode(kBF16, 0x00008000u), 0x0000);     // f32 subnormal tie -> even 0
  EXPECT_EQ(RefEncode(kBF16, 0x00018000u), 0x0002);
  EXPECT_EQ(RefEncode(kBF16, 0x7F800001u), 0x7FC0);     // NaN never truncates to inf
  EXPECT_EQ(RefDecode(kF16, 0x7BFF), 65504.0);
  EXPECT_EQ(RefDecode(kF16, 0x0001), 0x1p-24);
  EXPECT_EQ(RefDecode(kBF16, 0x0001), 0x1p-133);
}

// Every f32 within 4 ulps of every rounding boundary, all binades, both signs.
TEST_P(NarrowFloatTest, EncodeBoundariesAllBinades) {
  const Format& f = *GetParam();
  std::vector<uint32_t> midpoints;
  const std::vector<uint32_t> points = BoundaryNeighbourhood(f, &midpoints);

  // Independent coverage proof: the boundaries of f, from its value list
  // (midpoints of adjacent positive finite values plus the overflow threshold
  // halfway between the largest finite value and 2^(emax+1)), must all be in
  // the enumerated set with their +-4 ulp neighbours.
  std::vector<double> values;
  for (uint32_t h = 0; h < f.inf(); ++h) values.push_back(RefDecode(f, h));
  std::vector<double> boundaries;
  for (size_t i = 0; i + 1 < values.size(); ++i) boundaries.push_back((values[i] + values[i + 1]) / 2);
  boundaries.push_back((values.back() + std::ldexp(1.0, f.bias() + 1)) / 2);
  ASSERT_EQ(boundaries.size(), midpoints.size()) << "enumerated boundary count";
  size_t missing = 0;
  for (double b : boundaries) {
    const float bf = static_cast<float>(b);
    ASSERT_EQ(static_cast<double>(bf), b) << "a boundary of " << f.name << " is not an f32";
    for (int d = -4; d <= 4; ++d) {
      const uint32_t u = Bits(bf) + static_cast<uint32_t>(d);
      if (!std::binary_search(points.begin(), points.end(), u)) ++missing;
    }
  }
  EXPECT_EQ(missing, 0u) << "boundary neighbours not covered";

  Checker c(std::string("f32->") + f.name + " boundaries +-4 ulp, all binades, both signs");
  for (uint32_t sign : {0u, 0x80000000u}) {
    for (uint32_t u : points) CheckEncode(f, sign | u, c);
  }
  std::printf("[ counts   ] f32->%s: %zu rounding boundaries per sign, %zu distinct inputs per sign\n",
              f.name, boundaries.size(), points.size());
}

// Special values and the overflow thresholds by name.
TEST_P(NarrowFloatTest, EncodeSpecialValues) {
  const Format& f = *GetParam();
  Checker c(std::string("f32->") + f.name + " special values");
  const uint32_t specials[] = {
      0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x00800000u,
      0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800000u, 0xFF800000u, 0x7F800001u, 0xFF800001u,
      0x7FBFFFFFu, 0x7FC00000u, 0xFFC00000u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x7F807FFFu,
      0x7F80FFFFu, 0x7F801FFFu, Bits(65504.0f), Bits(65520.0f), Bits(std::nextafter(65520.0f, 0.0f)),
      Bits(65536.0f), Bits(1e30f), Bits(0x1p-25f), Bits(0x1p-24f), Bits(0x1p-14f), Bits(1.0f)};
  for (uint32_t u : specials) {
    CheckEncode(f, u, c);
    CheckEncode(f, u ^ 0x80000000u, c);
  }
  // Named expectations that do not go through the reference at all.
  if (f.mant_bits == 10) {
    EXPECT_EQ(vt::F32ToF16(65520.0f), 0x7C00);
    EXPECT_EQ(vt::F32ToF16(std::nextafter(65520.0f, 0.0f)), 0x7BFF);
    EXPECT_EQ(vt::F32ToF16(-INFINITY), 0xFC00);
    EXPECT_EQ(vt::F32ToF16(0x1p-25f), 0x0000);
    EXPECT_EQ(vt::F32ToF16(-0x1p-25f), 0x8000);
  } else {
    EXPECT_EQ(vt::F32ToBF16(FromBits(0x7F7FFFFFu)), 0x7F80);
    EXPECT_EQ(vt::F32ToBF16(FromBits(0x7F800001u)), 0x7FC0);
    EXPECT_EQ(vt::F32ToBF16(FromBits(0xFF80FFFFu)), 0xFFC0);
  }
}

INSTANTIATE_TEST_SUITE_P(Codec, NarrowFloatTest, ::testing::Values(&kF16, &kBF16),
                         [](const auto& info) { return std::string(info.param->name); });

// >= 10,000,000 uniformly random f32 bit patterns through both encoders.
TEST(NarrowFloatRandom, TenMillionRandomPatterns) {
  constexpr uint64_t kSeed = 0x5EED0F16BF16ull;
  constexpr uint64_t kDraws = 10'000'000;
  std::printf("[ seed     ] NarrowFloatRandom master seed 0x%llX (std::mt19937_64)\n",
              static_cast<unsigned long long>(kSeed));
  RecordProperty("seed", std::to_string(kSeed));
  std::mt19937_64 rng(kSeed);
  Checker c16("f32->f16 random patterns");
  Checker cb("f32->bf16 random patterns");
  for (uint64_t i = 0; i < kDraws / 2; ++i) {
    const uint64_t r = rng();
    for (uint32_t u : {static_cast<uint32_t>(r), static_cast<uint32_t>(r >> 32)}) {
      CheckEncode(kF16, u, c16);
      CheckEncode(kBF16, u, cb);
    }
  }
  EXPECT_GE(c16.checked(), kDraws);
  EXPECT_GE(cb.checked(), kDraws);
}

}  // namespace
