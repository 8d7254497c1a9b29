// The oracle-side codecs (oracles/bits.h, written by value) against the
// kernels' bit-level codecs (vt/codec.h): two implementations of one spec
// (op-contracts 1.4), so a bug in either shows here. With format_test (which
// checks RoundReal against them) the only harness code that includes
// vt/codec.h, on purpose.
//   decode: every f16/bf16 pattern, every fp8 byte, every fp4 nibble;
//   encode: every code value and every midpoint between neighbouring codes
//     (all exponents, subnormals, the overflow threshold) +-4 f32 ulps, both
//     signs; +-0, +-inf, NaNs with payloads; then random f32 bit patterns
//     (3M: any pattern, and the same with its exponent in the narrow formats'
//     range) from one printed seed (override with VT_TEST_SEED=<n>);
//   f32 (no kernel codec): decode / encode against the C++ float itself.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "oracles/bits.h"
#include "vt/codec.h"

namespace vt::oracle {
namespace {

constexpr Fmt kNarrow[] = {Fmt::kF16, Fmt::kBF16, Fmt::kFp8E4M3, Fmt::kFp4E2M1};

uint32_t Width(Fmt f) {
  switch (f) {
    case Fmt::kF16:
    case Fmt::kBF16: return 16;
    case Fmt::kFp8E4M3: return 8;
    default: return 4;
  }
}

float KernelDecode(Fmt f, uint32_t c) {
  switch (f) {
    case Fmt::kF16: return vt::F16ToF32(static_cast<uint16_t>(c));
    case Fmt::kBF16: return vt::BF16ToF32(static_cast<uint16_t>(c));
    case Fmt::kFp8E4M3: return vt::Fp8E4M3ToF32(static_cast<uint8_t>(c));
    default: return vt::Fp4E2M1ToF32(static_cast<uint8_t>(c));
  }
}

uint32_t KernelEncode(Fmt f, float x) {
  switch (f) {
    case Fmt::kF16: return vt::F32ToF16(x);
    case Fmt::kBF16: return vt::F32ToBF16(x);
    case Fmt::kFp8E4M3: return vt::F32ToFp8E4M3(x);
    default: return vt::F32ToFp4E2M1(x);
  }
}

// Bitwise agreement of the two encoders on one f32; counts and reports misses.
struct EncodeCheck {
  Fmt fmt;
  int64_t checked = 0, bad = 0;
  void operator()(float x) {
    ++checked;
    const uint32_t want = KernelEncode(fmt, x);
    const uint32_t got = EncodeBits(fmt, x);
    if (want == got) return;
    if (++bad <= 5) {
      ADD_FAILURE() << Name(fmt) << " encode of " << x << " (f32 0x" << std::hex << std::bit_cast<uint32_t>(x)
                    << "): kernel 0x" << want << ", oracle 0x" << got;
    }
  }
};

// f32 bit pattern stepped by `k` ulps towards +inf (negative k: towards -inf),
// stopping at +-inf.
float Step(float x, int k) {
  for (; k > 0; --k) x = std::nextafter(x, INFINITY);
  for (; k < 0; ++k) x = std::nextafter(x, -INFINITY);
  return x;
}

TEST(CodecAgreement, DecodeEveryPattern) {
  for (Fmt f : kNarrow) {
    int64_t bad = 0;
    for (uint32_t c = 0; c < (1u << Width(f)); ++c) {
      const double want = KernelDecode(f, c);
      const double got = DecodeBits(f, c);
      const bool same = std::isnan(want) ? std::isnan(got) && std::signbit(want) == std::signbit(got)
                                         : want == got && std::signbit(want) == std::signbit(got);
      if (!same && ++bad <= 5) {
        ADD_FAILURE() << Name(f) << " decode of 0x" << std::hex << c << ": kernel " << want << ", oracle " << got;
      }
    }
    EXPECT_EQ(bad, 0) << Name(f);
  }
}

// The definitions' own anchor values, so the two decoders cannot agree on a
// shared mistake unseen.
TEST(CodecAgreement, DecodeAnchorsFromTheDefinitions) {
  const double fp4[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
  for (uint32_t c = 0; c < 8; ++c) {
    EXPECT_EQ(DecodeBits(Fmt::kFp4E2M1, c), fp4[c]) << c;
    EXPECT_EQ(DecodeBits(Fmt::kFp4E2M1, c | 8u), -fp4[c]) << c;
  }
  EXPECT_EQ(DecodeBits(Fmt::kF16, 0x0001), 0x1p-24);  // smallest subnormal
  EXPECT_EQ(DecodeBits(Fmt::kF16, 0x03FF), 1023 * 0x1p-24);
  EXPECT_EQ(DecodeBits(Fmt::kF16, 0x0400), 0x1p-14);  // smallest normal
  EXPECT_EQ(DecodeBits(Fmt::kF16, 0x7BFF), 65504.0);
  EXPECT_EQ(DecodeBits(Fmt::kF16, 0xFC00), -INFINITY);
  EXPECT_EQ(DecodeBits(Fmt::kBF16, 0x0001), 0x1p-133);
  EXPECT_EQ(DecodeBits(Fmt::kBF16, 0x3F80), 1.0);
  EXPECT_EQ(DecodeBits(Fmt::kFp8E4M3, 0x01), 0x1p-9);
  EXPECT_EQ(DecodeBits(Fmt::kFp8E4M3, 0x08), 0x1p-6);
  EXPECT_EQ(DecodeBits(Fmt::kFp8E4M3, 0x7E), 448.0);
  EXPECT_EQ(DecodeBits(Fmt::kFp8E4M3, 0x78), 256.0);  // exponent 15 is finite in e4m3fn
  EXPECT_TRUE(std::isnan(DecodeBits(Fmt::kFp8E4M3, 0xFF)));
}

// Every code value and every midpoint of neighbouring codes (the rounding
// boundaries), +-4 f32 ulps, both signs. The last midpoint is the overflow /
// saturation threshold: the largest finite value plus half its spacing.
TEST(CodecAgreement, EncodeAtEveryBoundary) {
  for (Fmt f : kNarrow) {
    std::vector<double> mags;  // nonnegative finite values, ascending (positive codes are ordered)
    for (uint32_t c = 0; c < (1u << (Width(f) - 1)); ++c) {
      const double v = DecodeBits(f, c);
      if (std::isfinite(v)) mags.push_back(v);
    }
    const double top = mags.back();
    const double spacing = top - mags[mags.size() - 2];
    std::vector<double> points = mags;
    for (std::size_t k = 0; k + 1 < mags.size(); ++k) points.push_back(0.5 * (mags[k] + mags[k + 1]));
    points.push_back(top + 0.5 * spacing);
    if (top + spacing <= 0x1.fffffep127) points.push_back(top + spacing);  // past saturation (not bf16)
    EncodeCheck check{f};
    for (double p : points) {
      const float x = static_cast<float>(p);
      ASSERT_EQ(static_cast<double>(x), p) << Name(f) << ": boundary not an f32";  // exact for these formats
      for (int k = -4; k <= 4; ++k) {
        check(Step(x, k));
        check(Step(-x, k));
      }
    }
    EXPECT_EQ(check.bad, 0) << Name(f) << ": " << check.bad << " of " << check.checked;
    EXPECT_GT(check.checked, static_cast<int64_t>(18 * mags.size()));
  }
}

TEST(CodecAgreement, EncodeSpecials) {
  const float specials[] = {0.0f,
                            -0.0f,
                            INFINITY,
                            -INFINITY,
                            std::bit_cast<float>(0x7FC00000u),  // quiet NaN
                            std::bit_cast<float>(0xFFC00000u),  // negative quiet NaN (x86's default)
                            std::bit_cast<float>(0x7F800001u),  // signalling, low payload
                            std::bit_cast<float>(0x7FA5A5A5u),  // signalling, high payload
                            std::bit_cast<float>(0xFFFFE000u),  // payload in bf16/f16 range
                            std::bit_cast<float>(0x00000001u),  // smallest f32 subnormal
                            std::bit_cast<float>(0x80000001u),
                            std::bit_cast<float>(0x7F7FFFFFu)};  // f32 max
  for (Fmt f : kNarrow) {
    EncodeCheck check{f};
    for (float x : specials) check(x);
    EXPECT_EQ(check.bad, 0) << Name(f);
  }
  // The spec's fixed codes, independently of either encoder.
  EXPECT_EQ(EncodeBits(Fmt::kFp8E4M3, -NAN), 0x7Fu);
  EXPECT_EQ(EncodeBits(Fmt::kFp8E4M3, -INFINITY), 0xFEu);
  EXPECT_EQ(EncodeBits(Fmt::kFp8E4M3, -0.0), 0x80u);
  EXPECT_EQ(EncodeBits(Fmt::kFp4E2M1, -0.1), 0x0u);  // fp4 zero is always +0
  EXPECT_EQ(EncodeBits(Fmt::kFp4E2M1, NAN), 0x7u);
  EXPECT_EQ(EncodeBits(Fmt::kF16, 65520.0), 0x7C00u);  // overflow threshold ties to inf
  EXPECT_EQ(EncodeBits(Fmt::kBF16, std::bit_cast<float>(0xFF812345u)), 0xFFC1u);  // quieted, sign kept
}

TEST(CodecAgreement, EncodeRandomF32Patterns) {
  const char* env = std::getenv("VT_TEST_SEED");
  const uint64_t seed = env != nullptr ? std::strtoull(env, nullptr, 0) : 0xc0dec0de;
  std::printf("[ seed     ] EncodeRandomF32Patterns: 0x%llx\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  EncodeCheck checks[] = {{Fmt::kF16}, {Fmt::kBF16}, {Fmt::kFp8E4M3}, {Fmt::kFp4E2M1}};
  constexpr int kDraws = 1'500'000;
  for (int i = 0; i < kDraws; ++i) {
    const uint64_t r = rng();
    // Any pattern (mostly far outside fp8/fp4 range), then the same mantissa
    // and sign with the exponent pulled into [2^-30, 2^17], where every
    // narrow format has codes.
    const uint32_t any = static_cast<uint32_t>(r);
    const uint32_t exp = 97u + static_cast<uint32_t>((r >> 32) % 48u);
    const uint32_t near = (any & 0x807FFFFFu) | (exp << 23);
    for (uint32_t half : {any, near}) {
      for (EncodeCheck& c : checks) c(std::bit_cast<float>(half));
    }
  }
  for (const EncodeCheck& c : checks) EXPECT_EQ(c.bad, 0) << Name(c.fmt) << ": " << c.bad << " of " << c.checked;
}

// f32 has no kernel codec; the reference is the C++ float itself: every
// pattern decodes to its value and re-encodes to itself (NaNs: quieted, sign
// and payload kept).
TEST(CodecAgreement, F32RoundTripsAgainstTheLanguage) {
  std::mt19937_64 rng(0xf32f32);
  int64_t bad = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    const auto bits = static_cast<uint32_t>(rng());
    const float f = std::bit_cast<float>(bits);
    const double d = DecodeBits(Fmt::kF32, bits);
    const bool nan = std::isnan(f);
    const bool dec_ok = nan ? std::isnan(d) && std::signbit(d) == std::signbit(f)
                            : d == f && std::signbit(d) == std::signbit(f);
    const uint32_t want = nan ? (bits | 0x00400000u) : bits;
    const uint32_t got = EncodeBits(Fmt::kF32, d);
    if ((!dec_ok || got != want) && ++bad <= 5) {
      ADD_FAILURE() << "f32 0x" << std::hex << bits << ": decoded " << d << ", re-encoded 0x" << got;
    }
  }
  EXPECT_EQ(bad, 0);
}

}  // namespace
}  // namespace vt::oracle
