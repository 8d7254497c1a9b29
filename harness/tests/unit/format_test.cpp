// oracles/format: RoundReal / UlpOf, cross-checked against the kernels' bit-level
// codecs (an independent implementation of the same roundings) and against the
// C++ double -> float conversion. Random inputs come from one printed seed
// (override with VT_TEST_SEED=<n>).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>

#include "oracles/format.h"
#include "vt/codec.h"

namespace vt::oracle {
namespace {

uint64_t TestSeed(uint64_t fallback) {
  const char* env = std::getenv("VT_TEST_SEED");
  const uint64_t s = env != nullptr ? std::strtoull(env, nullptr, 0) : fallback;
  std::printf("[ seed     ] %s: 0x%llx\n", ::testing::UnitTest::GetInstance()->current_test_info()->name(),
              static_cast<unsigned long long>(s));
  return s;
}

float FromBits(uint32_t b) { return std::bit_cast<float>(b); }
uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }

// Same value, NaN == NaN, and (when `sign_of_zero`) the same sign of zero.
bool Same(double a, double b, bool sign_of_zero = true) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (a != b) return false;
  return !sign_of_zero || a != 0.0 || std::signbit(a) == std::signbit(b);
}

// A float drawn from one of several input classes that exercise a format
// whose finite values have binary exponents in [lo_exp, hi_exp]:
//   0: any bit pattern (all exponents, subnormals, inf, NaN)
//   1: exponent uniform in [lo_exp - 4, hi_exp + 2], random mantissa (in range,
//      subnormals of the format, just past overflow)
//   2: an exact midpoint between two adjacent codes (ties), +- 1 f32 ulp
//   3: a code's value exactly (fixed points), +- 1 f32 ulp
// Codes come from `decode` over `ncodes` codes; midpoints are formed in double
// (exact) and are representable in f32 for every narrow format here.
template <class Decode>
float Draw(std::mt19937_64& rng, int lo_exp, int hi_exp, Decode decode, uint32_t ncodes) {
  const uint64_t r = rng();
  switch (r % 4) {
    case 0: return FromBits(static_cast<uint32_t>(r >> 32));
    case 1: {
      const int span = hi_exp - lo_exp + 7;
      const int e = lo_exp - 4 + static_cast<int>((r >> 2) % static_cast<uint64_t>(span));
      const double m = 1.0 + static_cast<double>((r >> 16) & 0x7FFFFF) * 0x1p-23;
      const double v = std::ldexp(m, e) * ((r >> 63) ? -1.0 : 1.0);
      return static_cast<float>(v);
    }
    default: {
      const uint32_t c = static_cast<uint32_t>((r >> 8) % ncodes);
      const double a = decode(c), b = decode((c + 1) % ncodes);
      if (!std::isfinite(a)) return static_cast<float>(a);
      double v = a;
      if (r % 4 == 2 && std::isfinite(b) && std::signbit(a) == std::signbit(b)) v = 0.5 * (a + b);
      float f = static_cast<float>(v);
      const int nudge = static_cast<int>((r >> 40) % 3);  // 0: exact, 1: up, 2: down
      if (nudge == 1) f = std::nextafter(f, INFINITY);
      if (nudge == 2) f = std::nextafter(f, -INFINITY);
      return f;
    }
  }
}

constexpr int kDraws = 2'000'000;

TEST(Format, RoundRealBF16MatchesCodec) {
  std::mt19937_64 rng(TestSeed(0xbf16c0de));
  auto dec = [](uint32_t c) { return static_cast<double>(vt::BF16ToF32(static_cast<uint16_t>(c))); };
  int64_t bad = 0;
  for (int i = 0; i < kDraws; ++i) {
    const float x = Draw(rng, -133, 127, dec, 65536);
    const double want = vt::BF16ToF32(vt::F32ToBF16(x));
    const double got = RoundReal(Fmt::kBF16, x);
    if (!Same(got, want) && ++bad <= 5) {
      ADD_FAILURE() << "bf16: x=" << x << " (0x" << std::hex << Bits(x) << std::dec << ") RoundReal=" << got
                    << " codec=" << want;
    }
  }
  EXPECT_EQ(bad, 0);
}

TEST(Format, RoundRealF16MatchesCodecIncludingOverflowAndSubnormals) {
  std::mt19937_64 rng(TestSeed(0xf16c0de));
  auto dec = [](uint32_t c) { return static_cast<double>(vt::F16ToF32(static_cast<uint16_t>(c))); };
  int64_t bad = 0, inf = 0, sub = 0;
  for (int i = 0; i < kDraws; ++i) {
    const float x = Draw(rng, -24, 15, dec, 65536);
    const double want = vt::F16ToF32(vt::F32ToF16(x));
    const double got = RoundReal(Fmt::kF16, x);
    if (std::isinf(want) && std::isfinite(x)) ++inf;
    if (want != 0.0 && std::fabs(want) < 0x1p-14) ++sub;
    if (!Same(got, want) && ++bad <= 5) {
      ADD_FAILURE() << "f16: x=" << x << " (0x" << std::hex << Bits(x) << std::dec << ") RoundReal=" << got
                    << " codec=" << want;
    }
  }
  EXPECT_EQ(bad, 0);
  // The draw must actually have exercised both edges.
  EXPECT_GT(inf, 1000);
  EXPECT_GT(sub, 1000);
  // Hand-picked edges: the overflow threshold 65520 is a tie that rounds to
  // even (the next "code" 65536 is out of range -> inf); the half subnormal
  // quantum 2^-25 ties to zero, just above it rounds to 2^-24.
  EXPECT_EQ(RoundReal(Fmt::kF16, 65519.996), 65504.0);
  EXPECT_EQ(RoundReal(Fmt::kF16, 65520.0), INFINITY);
  EXPECT_EQ(RoundReal(Fmt::kF16, -65520.0), -INFINITY);
  EXPECT_EQ(RoundReal(Fmt::kF16, 0x1p-25), 0.0);
  EXPECT_TRUE(std::signbit(RoundReal(Fmt::kF16, -0x1p-25)));
  EXPECT_EQ(RoundReal(Fmt::kF16, 0x1.000002p-25), 0x1p-24);
  EXPECT_EQ(RoundReal(Fmt::kF16, 3 * 0x1p-25), 2 * 0x1p-24);  // 1.5 quanta -> 2 (even)
}

TEST(Format, RoundRealFp8E4M3MatchesCodecAndSaturates) {
  std::mt19937_64 rng(TestSeed(0xf8e4));
  auto dec = [](uint32_t c) { return static_cast<double>(vt::Fp8E4M3ToF32(static_cast<uint8_t>(c))); };
  int64_t bad = 0, sat = 0;
  for (int i = 0; i < kDraws; ++i) {
    const float x = Draw(rng, -9, 8, dec, 256);
    if (std::isnan(x)) continue;
    const double want = vt::Fp8E4M3ToF32(vt::F32ToFp8E4M3(x));
    const double got = RoundReal(Fmt::kFp8E4M3, x);
    if (std::fabs(x) > 448.0f) ++sat;
    if (!Same(got, want) && ++bad <= 5) {
      ADD_FAILURE() << "fp8: x=" << x << " (0x" << std::hex << Bits(x) << std::dec << ") RoundReal=" << got
                    << " codec=" << want;
    }
  }
  EXPECT_EQ(bad, 0);
  EXPECT_GT(sat, 1000);
  EXPECT_EQ(RoundReal(Fmt::kFp8E4M3, 464.0), 448.0);  // tie between 448 and (out of range) 480
  EXPECT_EQ(RoundReal(Fmt::kFp8E4M3, 1e30), 448.0);
  EXPECT_EQ(RoundReal(Fmt::kFp8E4M3, -INFINITY), -448.0);
  EXPECT_EQ(RoundReal(Fmt::kFp8E4M3, 0x1p-10), 0.0);        // half the subnormal quantum 2^-9: tie to 0
  EXPECT_EQ(RoundReal(Fmt::kFp8E4M3, 3 * 0x1p-10), 2 * 0x1p-9);  // 1.5 quanta -> 2
  EXPECT_TRUE(std::isnan(RoundReal(Fmt::kFp8E4M3, NAN)));
}

TEST(Format, RoundRealFp4E2M1MatchesCodecUpToSignOfZero) {
  std::mt19937_64 rng(TestSeed(0xf4e2));
  auto dec = [](uint32_t c) { return static_cast<double>(vt::Fp4E2M1ToF32(static_cast<uint8_t>(c))); };
  int64_t bad = 0, sat = 0;
  for (int i = 0; i < kDraws; ++i) {
    const float x = Draw(rng, -1, 2, dec, 16);
    if (std::isnan(x)) continue;
    const double want = vt::Fp4E2M1ToF32(vt::F32ToFp4E2M1(x));
    const double got = RoundReal(Fmt::kFp4E2M1, x);
    if (std::fabs(x) > 6.0f) ++sat;
    if (!Same(got, want, /*sign_of_zero=*/false) && ++bad <= 5) {
      ADD_FAILURE() << "fp4: x=" << x << " (0x" << std::hex << Bits(x) << std::dec << ") RoundReal=" << got
                    << " codec=" << want;
    }
  }
  EXPECT_EQ(bad, 0);
  EXPECT_GT(sat, 1000);
  // The codec's documented thresholds (ties to even).
  const double in[] = {0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 7.0, -5.0, 0.2499};
  const double out[] = {0.0, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0, 6.0, -4.0, 0.0};
  for (int i = 0; i < 10; ++i) EXPECT_EQ(RoundReal(Fmt::kFp4E2M1, in[i]), out[i]) << in[i];
}

TEST(Format, RoundRealF32MatchesDoubleToFloatConversion) {
  std::mt19937_64 rng(TestSeed(0xf32d0b1e));
  int64_t bad = 0, over = 0, under = 0;
  for (int i = 0; i < kDraws; ++i) {
    const uint64_t r = rng();
    double d;
    switch (r % 4) {
      case 0: d = std::bit_cast<double>(rng()); break;  // any double
      case 1: {  // f32 range incl. subnormals and just past overflow
        const int e = -155 + static_cast<int>((r >> 2) % 286);
        d = std::ldexp(1.0 + static_cast<double>(rng() >> 12) * 0x1p-52, e);
        break;
      }
      case 2: {  // exact midpoints between adjacent floats, +- 1 double ulp
        const float f = FromBits(static_cast<uint32_t>(r >> 32) & 0x7F7FFFFFu);
        d = 0.5 * (static_cast<double>(f) + static_cast<double>(std::nextafter(f, INFINITY)));
        if ((r >> 8) % 3 == 1) d = std::nextafter(d, INFINITY);
        if ((r >> 8) % 3 == 2) d = std::nextafter(d, -INFINITY);
        break;
      }
      default: {  // around the overflow threshold and the smallest subnormal
        const double base = (r >> 8) & 1 ? 0x1.ffffffp127 : 0x1p-150;
        d = base * (1.0 + (static_cast<double>(rng() >> 11) * 0x1p-53 - 0.5) * 1e-6);
        break;
      }
    }
    if ((r >> 63) != 0) d = -d;
    const double want = static_cast<double>(static_cast<float>(d));
    const double got = RoundReal(Fmt::kF32, d);
    if (std::isinf(want) && std::isfinite(d)) ++over;
    if (want == 0.0 && d != 0.0) ++under;
    if (!Same(got, want) && ++bad <= 5) {
      ADD_FAILURE() << "f32: d=" << d << " RoundReal=" << got << " (float)d=" << want;
    }
  }
  EXPECT_EQ(bad, 0);
  EXPECT_GT(over, 1000);
  EXPECT_GT(under, 1000);
  EXPECT_EQ(RoundReal(Fmt::kF32, 0x1.ffffffp127), INFINITY);   // tie at the overflow threshold
  EXPECT_EQ(RoundReal(Fmt::kF32, 0x1.fffffefffp127), 0x1.fffffep127);
  EXPECT_EQ(RoundReal(Fmt::kF32, 0x1p-150), 0.0);              // tie with the smallest subnormal
  EXPECT_EQ(RoundReal(Fmt::kF32, 0x1.0001p-150), 0x1p-149);
}

TEST(Format, Every16BitPatternIsAFixedPoint) {
  for (uint32_t p = 0; p < 65536; ++p) {
    const double b = vt::BF16ToF32(static_cast<uint16_t>(p));
    const double h = vt::F16ToF32(static_cast<uint16_t>(p));
    ASSERT_TRUE(Same(RoundReal(Fmt::kBF16, b), b)) << "bf16 pattern 0x" << std::hex << p;
    ASSERT_TRUE(Same(RoundReal(Fmt::kF16, h), h)) << "f16 pattern 0x" << std::hex << p;
    // bf16 and f16 values are f32 values, so they are fixed points of f32 too.
    ASSERT_TRUE(Same(RoundReal(Fmt::kF32, b), b)) << "bf16 pattern 0x" << std::hex << p;
  }
  for (uint32_t c = 0; c < 256; ++c) {
    const double v = vt::Fp8E4M3ToF32(static_cast<uint8_t>(c));
    ASSERT_TRUE(Same(RoundReal(Fmt::kFp8E4M3, v), v)) << "fp8 code 0x" << std::hex << c;
  }
  for (uint32_t c = 0; c < 16; ++c) {
    const double v = vt::Fp4E2M1ToF32(static_cast<uint8_t>(c));
    ASSERT_TRUE(Same(RoundReal(Fmt::kFp4E2M1, v), v)) << "fp4 code " << c;
  }
}

TEST(Format, UlpOfHandComputedValues) {
  EXPECT_EQ(UlpOf(Fmt::kF32, 1.0), 0x1p-23);
  EXPECT_EQ(UlpOf(Fmt::kF32, 1.9999), 0x1p-23);
  EXPECT_EQ(UlpOf(Fmt::kF32, 0.75), 0x1p-24);
  EXPECT_EQ(UlpOf(Fmt::kF32, -3.0), 0x1p-22);
  EXPECT_EQ(UlpOf(Fmt::kF32, 1e-40), 0x1p-149);  // f32 subnormal quantum
  EXPECT_EQ(UlpOf(Fmt::kF32, 0.0), 0x1p-149);
  EXPECT_EQ(UlpOf(Fmt::kBF16, 1.0), 0x1p-7);
  EXPECT_EQ(UlpOf(Fmt::kBF16, 256.5), 2.0);
  EXPECT_EQ(UlpOf(Fmt::kBF16, 0.99), 0x1p-8);
  EXPECT_EQ(UlpOf(Fmt::kF16, 1.0), 0x1p-10);
  EXPECT_EQ(UlpOf(Fmt::kF16, 65504.0), 32.0);
  EXPECT_EQ(UlpOf(Fmt::kF16, 1e-6), 0x1p-24);  // f16 subnormal quantum
  EXPECT_EQ(UlpOf(Fmt::kF16, 0x1p-14), 0x1p-24);
  EXPECT_EQ(UlpOf(Fmt::kF16, 0.0), 0x1p-24);
  EXPECT_EQ(UlpOf(Fmt::kFp8E4M3, 1.0), 0x1p-3);
  EXPECT_EQ(UlpOf(Fmt::kFp8E4M3, 448.0), 32.0);
  EXPECT_EQ(UlpOf(Fmt::kFp8E4M3, 1000.0), 32.0);  // beyond the largest value: its spacing
  EXPECT_EQ(UlpOf(Fmt::kF16, 1e6), 32.0);
  EXPECT_EQ(UlpOf(Fmt::kFp8E4M3, -300.0), 32.0);
  EXPECT_EQ(UlpOf(Fmt::kFp8E4M3, 0.01), 0x1p-9);  // fp8 subnormal quantum
  EXPECT_EQ(UlpOf(Fmt::kFp4E2M1, 1.0), 0.5);
  EXPECT_EQ(UlpOf(Fmt::kFp4E2M1, 0.5), 0.5);
  EXPECT_EQ(UlpOf(Fmt::kFp4E2M1, 6.0), 2.0);
}

// UlpOf at a code's value is the distance to the next code above it, for
// every positive finite code of every narrow format (derived from the codecs).
TEST(Format, UlpOfIsTheCodecSpacingAboveEveryCode) {
  auto check = [](Fmt fmt, uint32_t last, auto decode) {
    for (uint32_t c = 0; c < last; ++c) {
      const double a = decode(c), b = decode(c + 1);
      ASSERT_EQ(UlpOf(fmt, a), b - a) << Name(fmt) << " code 0x" << std::hex << c << " value " << a;
    }
  };
  check(Fmt::kBF16, 0x7F7F, [](uint32_t c) { return static_cast<double>(vt::BF16ToF32(static_cast<uint16_t>(c))); });
  check(Fmt::kF16, 0x7BFF, [](uint32_t c) { return static_cast<double>(vt::F16ToF32(static_cast<uint16_t>(c))); });
  check(Fmt::kFp8E4M3, 0x7E, [](uint32_t c) { return static_cast<double>(vt::Fp8E4M3ToF32(static_cast<uint8_t>(c))); });
  check(Fmt::kFp4E2M1, 7, [](uint32_t c) { return static_cast<double>(vt::Fp4E2M1ToF32(static_cast<uint8_t>(c))); });
}

TEST(Format, NamesParseBackAndFmtOfRejectsIntegers) {
  for (Fmt f : {Fmt::kF32, Fmt::kF16, Fmt::kBF16, Fmt::kFp8E4M3, Fmt::kFp4E2M1}) {
    ASSERT_TRUE(ParseFmt(Name(f)).has_value()) << Name(f);
    EXPECT_EQ(*ParseFmt(Name(f)), f);
  }
  EXPECT_FALSE(ParseFmt("fp8").has_value());
  EXPECT_EQ(FmtOf(vt::DType::kBF16), Fmt::kBF16);
  EXPECT_EQ(FmtOf(vt::DType::kF16), Fmt::kF16);
  EXPECT_EQ(FmtOf(vt::DType::kF32), Fmt::kF32);
  EXPECT_THROW(FmtOf(vt::DType::kU8), std::invalid_argument);
  EXPECT_THROW(FmtOf(vt::DType::kI32), std::invalid_argument);
}

}  // namespace
}  // namespace vt::oracle
