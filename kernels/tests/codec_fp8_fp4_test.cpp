// fp8 e4m3fn and fp4 e2m1 codecs (spec op-contracts.md 1.4) against references
// written here: decode from the bit-field formula, encode by a brute-force
// nearest-code search over every finite code's exact value.
//
// Encode rules checked (independent of the codec's threshold code):
//  * fp8: nearest finite code 0x00..0x7E to |x|, ties to the even code (mantissa
//    LSB 0); the largest candidate is 448, so |x| > 448 and +-inf saturate to
//    0x7E naturally; NaN -> 0x7F; the sign bit is x's sign bit, so -0 and tiny
//    negatives that round to zero give 0x80.
//  * fp4: nearest of {0,.5,1,1.5,2,3,4,6}, ties to the even code index; the sign
//    bit (bit 3) is set only when x < 0 and the result is nonzero; NaN -> 0x7.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "codec_test_util.h"
#include "vt/codec.h"

namespace {

using vt_test::Bits;
using vt_test::Checker;
using vt_test::FromBits;

// ---------------------------------------------------------------- references

// Magnitude of an fp8 e4m3fn code's low 7 bits (bias 7, subnormal m * 2^-9).
double Fp8Magnitude(uint8_t code) {
  const int e = (code >> 3) & 0xF;
  const int m = code & 0x7;
  if (e == 0) return std::ldexp(static_cast<double>(m), -9);
  return std::ldexp(1.0 + m / 8.0, e - 7);
}

bool Fp8IsNaN(uint8_t code) { return (code & 0x7F) == 0x7F; }

// Magnitude of an fp4 e2m1 code index 0..7 (bias 1, subnormal m * 0.5).
double Fp4Magnitude(int idx) {
  const int e = (idx >> 1) & 0x3;
  const int m = idx & 0x1;
  if (e == 0) return 0.5 * m;
  return std::ldexp(1.0 + m / 2.0, e - 1);
}

// Nearest candidate to a (a >= 0, not NaN) among ascending `values`, ties to
// the even index. Each step compares a with the midpoint of the current best
// and the next candidate, which is exact (candidates have <= 5 significant bits
// so their midpoint is a double), unlike subtracting and comparing distances.
int NearestEvenTie(double a, const std::vector<double>& values) {
  int best = 0;
  for (int i = 1; i < static_cast<int>(values.size()); ++i) {
    const double mid = (values[best] + values[i]) / 2;
    if (a > mid || (a == mid && (i & 1) == 0)) best = i;
  }
  return best;
}

const std::vector<double>& Fp8FiniteValues() {  // codes 0x00..0x7E
  static const std::vector<double> v = [] {
    std::vector<double> out;
    for (int c = 0; c <= 0x7E; ++c) out.push_back(Fp8Magnitude(static_cast<uint8_t>(c)));
    return out;
  }();
  return v;
}

const std::vector<double>& Fp4Values() {
  static const std::vector<double> v = [] {
    std::vector<double> out;
    for (int i = 0; i < 8; ++i) out.push_back(Fp4Magnitude(i));
    return out;
  }();
  return v;
}

uint8_t RefFp8(float x) {
  if (std::isnan(x)) return 0x7F;
  const uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  const int code = NearestEvenTie(std::fabs(static_cast<double>(x)), Fp8FiniteValues());
  return static_cast<uint8_t>(sign | code);
}

uint8_t RefFp4(float x) {
  if (std::isnan(x)) return 0x7;
  const int idx = NearestEvenTie(std::fabs(static_cast<double>(x)), Fp4Values());
  return static_cast<uint8_t>((x < 0.0f && idx != 0 ? 0x8 : 0x0) | idx);
}

// Midpoints of adjacent values, each with the floats just below and above it.
std::vector<float> MidpointNeighbourhood(const std::vector<double>& values) {
  std::vector<float> out;
  for (size_t i = 0; i + 1 < values.size(); ++i) {
    const double mid = (values[i] + values[i + 1]) / 2;
    const float f = static_cast<float>(mid);
    EXPECT_EQ(static_cast<double>(f), mid) << "midpoint not exact in f32";
    out.push_back(f);
    out.push_back(std::nextafter(f, 0.0f));
    out.push_back(std::nextafter(f, INFINITY));
  }
  return out;
}

void CheckFp8(float x, Checker& c) { c.Check(Bits(x), 8, RefFp8(x), vt::F32ToFp8E4M3(x), 2); }
void CheckFp4(float x, Checker& c) { c.Check(Bits(x), 8, RefFp4(x), vt::F32ToFp4E2M1(x), 1); }

// --------------------------------------------------------- reference sanity

TEST(Fp8Reference, HandComputedValues) {
  EXPECT_EQ(Fp8Magnitude(0x7E), 448.0);
  EXPECT_EQ(Fp8Magnitude(0x01), 0x1p-9);
  EXPECT_EQ(Fp8Magnitude(0x07), 7 * 0x1p-9);
  EXPECT_EQ(Fp8Magnitude(0x08), 0x1p-6);
  EXPECT_EQ(Fp8Magnitude(0x38), 1.0);
  EXPECT_EQ(RefFp8(0x1p-10f), 0x00);        // tie 0 / 2^-9 -> even 0x00
  EXPECT_EQ(RefFp8(3 * 0x1p-10f), 0x02);    // tie 0x01 / 0x02 -> 0x02
  EXPECT_EQ(RefFp8(432.0f), 0x7E);          // tie 416 / 448 -> even 0x7E
  EXPECT_EQ(RefFp8(1.0625f), 0x38);         // tie 1 / 1.125 -> 0x38
  EXPECT_EQ(RefFp8(1e30f), 0x7E);
  EXPECT_EQ(RefFp8(-INFINITY), 0xFE);
  EXPECT_EQ(RefFp8(-0.0f), 0x80);
  EXPECT_EQ(RefFp4(0.75f), 0x2);
  EXPECT_EQ(RefFp4(5.0f), 0x6);
  EXPECT_EQ(RefFp4(-0.25f), 0x0);
  EXPECT_EQ(RefFp4(-100.0f), 0xF);
}

// ------------------------------------------------------------------- fp8

TEST(Fp8E4M3, DecodeAll256Codes) {
  Checker c("fp8 e4m3fn decode, all 256 codes");
  int nans = 0;
  for (int code = 0; code < 256; ++code) {
    const uint8_t b = static_cast<uint8_t>(code);
    const float got = vt::Fp8E4M3ToF32(b);
    if (Fp8IsNaN(b)) {
      ++nans;
      c.Expect(std::isnan(got), b, "0x7F / 0xFF must decode to NaN");
      continue;
    }
    const double mag = Fp8Magnitude(b);
    const float want = static_cast<float>((b & 0x80) ? -mag : mag);  // exact
    c.Check(b, 2, Bits(want), Bits(got), 8);
  }
  EXPECT_EQ(nans, 2);
  EXPECT_EQ(Bits(vt::Fp8E4M3ToF32(0x00)), 0x00000000u);  // +0
  EXPECT_EQ(Bits(vt::Fp8E4M3ToF32(0x80)), 0x80000000u);  // -0
  EXPECT_EQ(vt::Fp8E4M3ToF32(0x7E), 448.0f);
  EXPECT_EQ(vt::Fp8E4M3ToF32(0xFE), -448.0f);
}

TEST(Fp8E4M3, EncodeEveryMidpointAndNeighbours) {
  Checker c("f32->fp8 midpoints and nextafter neighbours, both signs");
  const std::vector<float> pts = MidpointNeighbourhood(Fp8FiniteValues());
  ASSERT_EQ(pts.size(), 3u * 126u);
  for (float p : pts) {
    CheckFp8(p, c);
    CheckFp8(-p, c);
  }
  // Every code value itself and its neighbours round to that code.
  for (double v : Fp8FiniteValues()) {
    const float f = static_cast<float>(v);
    for (float p : {f, std::nextafter(f, 0.0f), std::nextafter(f, INFINITY)}) {
      CheckFp8(p, c);
      CheckFp8(-p, c);
    }
  }
}

TEST(Fp8E4M3, EncodeSpecialValues) {
  Checker c("f32->fp8 special values");
  const float kInf = std::numeric_limits<float>::infinity();
  const float specials[] = {0.0f, 0x1p-149f, 0x1p-126f, 0x1p-10f, 0x1p-9f, 0x1p-6f,
                            std::nextafter(0x1p-6f, 0.0f), 448.0f, std::nextafter(448.0f, 0.0f),
                            std::nextafter(448.0f, kInf), 464.0f, 480.0f, 1e30f,
                            std::numeric_limits<float>::max(), kInf};
  for (float s : specials) {
    CheckFp8(s, c);
    CheckFp8(-s, c);
  }
  for (uint32_t nan : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFFFFFFFu}) {
    c.Check(nan, 8, 0x7F, vt::F32ToFp8E4M3(FromBits(nan)), 2);
  }
  // Named outcomes, no reference involved.
  EXPECT_EQ(vt::F32ToFp8E4M3(-0.0f), 0x80);
  EXPECT_EQ(vt::F32ToFp8E4M3(-0x1p-11f), 0x80);  // rounds to zero, keeps its sign
  EXPECT_EQ(vt::F32ToFp8E4M3(kInf), 0x7E);
  EXPECT_EQ(vt::F32ToFp8E4M3(-kInf), 0xFE);
  EXPECT_EQ(vt::F32ToFp8E4M3(1e6f), 0x7E);
}

TEST(Fp8E4M3, EncodeRandomFloats) {
  constexpr uint64_t kSeed = 0xF8E4F3ull;
  constexpr int kDraws = 1'200'000;
  std::printf("[ seed     ] Fp8E4M3.EncodeRandomFloats master seed 0x%llX (std::mt19937_64)\n",
              static_cast<unsigned long long>(kSeed));
  RecordProperty("seed", std::to_string(kSeed));
  std::mt19937_64 rng(kSeed);
  std::uniform_real_distribution<double> sub(0.0, 0x1p-6);     // subnormal range
  std::uniform_real_distribution<double> log2mag(-10.0, 9.0);  // ~[2^-10, 512]
  std::uniform_real_distribution<double> lin(0.0, 500.0);
  Checker c("f32->fp8 random floats");
  int in_subnormal = 0;
  for (int i = 0; i < kDraws; ++i) {
    const uint64_t r = rng();
    float x;
    switch (i % 4) {
      case 0: x = static_cast<float>(sub(rng)); break;
      case 1: x = static_cast<float>(std::exp2(log2mag(rng))); break;
      case 2: x = static_cast<float>(lin(rng)); break;
      default: x = FromBits(static_cast<uint32_t>(r >> 7)); break;  // any pattern
    }
    if ((r & 1) != 0) x = -x;
    in_subnormal += std::fabs(x) <= 0x1p-6f ? 1 : 0;
    CheckFp8(x, c);
  }
  EXPECT_GE(c.checked(), 1'000'000u);
  EXPECT_GE(in_subnormal, kDraws / 4);  // why: the brief asks a large share there
}

// ------------------------------------------------------------------- fp4

TEST(Fp4E2M1, DecodeAll16Nibbles) {
  Checker c("fp4 e2m1 decode, all 16 nibbles (and high bits ignored)");
  for (int n = 0; n < 16; ++n) {
    const double mag = Fp4Magnitude(n & 0x7);
    const float want = static_cast<float>((n & 0x8) ? -mag : mag);
    c.Check(static_cast<uint64_t>(n), 1, Bits(want), Bits(vt::Fp4E2M1ToF32(static_cast<uint8_t>(n))), 8);
    // Only the low nibble is read.
    c.Check(static_cast<uint64_t>(n | 0xA0), 2, Bits(want),
            Bits(vt::Fp4E2M1ToF32(static_cast<uint8_t>(n | 0xA0))), 8);
  }
  EXPECT_EQ(vt::Fp4E2M1ToF32(0x7), 6.0f);
  EXPECT_EQ(vt::Fp4E2M1ToF32(0xF), -6.0f);
  EXPECT_EQ(vt::Fp4E2M1ToF32(0x5), 3.0f);
}

TEST(Fp4E2M1, EncodeEveryMidpointAndNeighbours) {
  Checker c("f32->fp4 midpoints and nextafter neighbours, both signs");
  const std::vector<float> pts = MidpointNeighbourhood(Fp4Values());
  ASSERT_EQ(pts.size(), 3u * 7u);
  for (float p : pts) {
    CheckFp4(p, c);
    CheckFp4(-p, c);
  }
  for (double v : Fp4Values()) {
    const float f = static_cast<float>(v);
    for (float p : {f, std::nextafter(f, 0.0f), std::nextafter(f, INFINITY)}) {
      CheckFp4(p, c);
      CheckFp4(-p, c);
    }
  }
  // The spec's thresholds by name (ties to even).
  EXPECT_EQ(vt::F32ToFp4E2M1(0.25f), 0x0);
  EXPECT_EQ(vt::F32ToFp4E2M1(0.75f), 0x2);
  EXPECT_EQ(vt::F32ToFp4E2M1(1.25f), 0x2);
  EXPECT_EQ(vt::F32ToFp4E2M1(1.75f), 0x4);
  EXPECT_EQ(vt::F32ToFp4E2M1(2.5f), 0x4);
  EXPECT_EQ(vt::F32ToFp4E2M1(3.5f), 0x6);
  EXPECT_EQ(vt::F32ToFp4E2M1(5.0f), 0x6);
  EXPECT_EQ(vt::F32ToFp4E2M1(-5.0f), 0xE);
}

TEST(Fp4E2M1, EncodeSpecialValues) {
  Checker c("f32->fp4 special values");
  const float kInf = std::numeric_limits<float>::infinity();
  for (float s : {0.0f, 0x1p-149f, 1e-30f, 6.0f, std::nextafter(6.0f, kInf), 7.0f, 8.0f, 1e30f, kInf}) {
    CheckFp4(s, c);
    CheckFp4(-s, c);
  }
  for (uint32_t nan : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFFFFFFFu}) {
    c.Check(nan, 8, 0x7, vt::F32ToFp4E2M1(FromBits(nan)), 1);
  }
  EXPECT_EQ(vt::F32ToFp4E2M1(-0.0f), 0x0);   // never a negative zero
  EXPECT_EQ(vt::F32ToFp4E2M1(-0.1f), 0x0);
  EXPECT_EQ(vt::F32ToFp4E2M1(-kInf), 0xF);
  EXPECT_EQ(vt::F32ToFp4E2M1(kInf), 0x7);
}

TEST(Fp4E2M1, EncodeRandomFloats) {
  constexpr uint64_t kSeed = 0xF4E2A1ull;
  constexpr int kDraws = 1'000'000;
  std::printf("[ seed     ] Fp4E2M1.EncodeRandomFloats master seed 0x%llX (std::mt19937_64)\n",
              static_cast<unsigned long long>(kSeed));
  RecordProperty("seed", std::to_string(kSeed));
  std::mt19937_64 rng(kSeed);
  std::uniform_real_distribution<float> u(-8.0f, 8.0f);
  Checker c("f32->fp4 random floats in [-8, 8]");
  for (int i = 0; i < kDraws; ++i) CheckFp4(u(rng), c);
  EXPECT_GE(c.checked(), 1'000'000u);
}

}  // namespace
