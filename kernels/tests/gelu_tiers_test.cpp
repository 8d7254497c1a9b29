// The vector tiers of gelu_and_mul against the portable tier, byte for byte
// (row_tiers_util.h's comparison: portable at 1 thread, each tier the CPU has
// at 1, 2 and 3 threads), over ragged row lengths around the vector widths 8
// and 16, every input / output dtype, specials, and gates drawn across the
// regimes of the vector tanhf. Then the vector tanhf itself against the
// loaded tanhf on a sample of its inputs: every regime edge (0, -0,
// subnormals, 2^-55, 1, 22 and the expm1f steps under them), +-inf, NaN
// payloads and every 65537th bit pattern. The exhaustive check over all 2^32
// inputs is vt_tanhf_exhaustive (CTest label slow).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define VT_TIER_TEST_BINARY "vt_gelu_tiers_test"
#include "cpu/act/gelu_tiers.h"
#include "row_tiers_util.h"
#include "vt/ops.h"

namespace {

using vt::DType;
using vt::Isa;
using vt::Tensor;
using vt::tiertest::Bytes;
using vt::tiertest::CompareTiers;
using vt::tiertest::Outs;
using vt::tiertest::RandomBytes;

// A gate whose inner = k0 (g + k1 g^3) lands in one of the tanhf regimes:
// tiny (|inner| < 2^-55 and around it), the expm1f k = 0 / -1 / -2 / -3 range
// (|inner| < 1), the k >= 3 range (|inner| in [1, 22)) and saturation.
float RegimeGate(std::mt19937_64& rng) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const float sign = (rng() & 1) != 0 ? -1.0f : 1.0f;
  switch (rng() % 4) {
    case 0: return sign * std::ldexp(1.0f + u(rng), -static_cast<int>(50 + rng() % 20));
    case 1: return sign * u(rng) * 1.2f;
    case 2: return sign * (1.0f + 4.0f * u(rng));
    default: return sign * (5.0f + 20.0f * u(rng));
  }
}

TEST(GeluTiers, GeluAndMulEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 11);
  const DType kIn[] = {DType::kF32, DType::kF16, DType::kBF16};
  const DType kOut[] = {DType::kF32, DType::kBF16};
  int cases = 0;
  for (int64_t t : {int64_t{1}, int64_t{3}, int64_t{17}}) {
    for (int64_t d : {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 129}) {
      for (DType xd : kIn) {
        for (DType od : kOut) {
          const bool specials = (cases % 4) == 3, regimes = xd == DType::kF32 && cases % 2 == 0;
          Bytes x = RandomBytes(rng, xd, t * 2 * d, specials);
          if (regimes) {
            for (int64_t i = 0; i < t; ++i) {
              for (int64_t j = 0; j < d; ++j) {
                const float g = RegimeGate(rng);
                std::memcpy(x.data() + (i * 2 * d + j) * 4, &g, 4);
              }
            }
          }
          vt::tiertest::CompareGluTiers("gelu_and_mul", vt::GeluAndMul, t, d, xd, od, x,
                                        std::string(regimes ? " tanh-regimes" : "") + (specials ? " specials" : ""));
          ++cases;
        }
      }
    }
  }
  EXPECT_GT(cases, 0);
}

// Every tier's vector tanhf must have passed its start-up self-check here, or
// the comparisons above would only have exercised the scalar fallback.
TEST(GeluTiers, VectorTanhfIsInUse) {
  VT_REQUIRE_A_VECTOR_TIER();
  for (Isa tier : vt::OpTiers("gelu_and_mul")) {
    if (!vt::IsaSupported(tier)) continue;
    EXPECT_TRUE(vt::cpu::VectorTanhfAgrees(tier))
        << vt::Name(tier) << ": the vector tanhf disagrees with this process's tanhf (another glibc build?): the "
        << "tier falls back to the scalar tanhf - correct bytes, but none of its vector path is tested";
  }
}


// The sampled inputs of the tanhf check, and an odd count so that every tier
// ends on a partial vector.
std::vector<float> SampledInputs() {
  std::vector<float> v;
  for (uint32_t bits : {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, 0x00800000u,
                        0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff812345u, 0x7fbfffffu,
                        0x7f7fffffu, 0xff7fffffu}) {
    v.push_back(std::bit_cast<float>(bits));
  }
  // The regime edges (ix = 0x24000000 is 2^-55, 0x3f800000 is 1, 0x41b00000
  // is 22) and expm1f's (2|x| at 2^-25, ln2/2, 1.5 ln2, the k = 22/23 and
  // 56/57 steps), 40 patterns either side, both signs.
  for (uint32_t edge : {0x24000000u, 0x3f800000u, 0x41b00000u, 0x32800000u, 0x3e317218u, 0x3f051592u, 0x40f98872u,
                        0x419ca6b9u}) {
    for (uint32_t k = edge - 40; k <= edge + 40; ++k) v.insert(v.end(), {std::bit_cast<float>(k), std::bit_cast<float>(k | 0x80000000u)});
  }
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 65537) v.push_back(std::bit_cast<float>(static_cast<uint32_t>(bits)));
  if (v.size() % 2 == 0) v.push_back(0.5f);
  return v;
}

TEST(GeluTiers, VectorTanhfSampleMatchesLibm) {
  VT_REQUIRE_A_VECTOR_TIER();
  const std::vector<float> x = SampledInputs();
  for (Isa tier : vt::OpTiers("gelu_and_mul")) {
    if (!vt::IsaSupported(tier)) continue;
    std::vector<float> y(x.size());
    vt::cpu::TanhfSpanOn(tier, x.data(), y.data(), static_cast<int64_t>(x.size()));
    int bad = 0;
    for (std::size_t k = 0; k < x.size() && bad < 5; ++k) {
      const float want = std::tanh(x[k]);
      if (std::isnan(want) && std::isnan(y[k])) continue;  // NaN as NaN
      if (std::bit_cast<uint32_t>(y[k]) != std::bit_cast<uint32_t>(want)) {
        ++bad;
        ADD_FAILURE() << vt::Name(tier) << " tanhf(" << std::hexfloat << x[k] << " = 0x" << std::hex << std::bit_cast<uint32_t>(x[k])
                      << ") = 0x" << std::bit_cast<uint32_t>(y[k]) << ", libm 0x" << std::bit_cast<uint32_t>(want)
                      << "\n  repro: vt_gelu_tiers_test --gtest_filter=GeluTiers.VectorTanhfSampleMatchesLibm";
      }
    }
  }
}

// The op over every 4099th f32 bit pattern as the gate (up = 1): the tanhf
// regimes, the polynomial's range and the specials through the whole kernel.
TEST(GeluTiers, GateSweepMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  constexpr int64_t kD = 1 << 16;
  const int64_t rows = ((int64_t{1} << 32) / 4099 + kD - 1) / kD;
  std::vector<float> x(static_cast<std::size_t>(rows * 2 * kD), 1.0f);
  uint64_t bits = 0;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < kD; ++j, bits += 4099) x[static_cast<std::size_t>(r * 2 * kD + j)] = std::bit_cast<float>(static_cast<uint32_t>(bits));
  }
  CompareTiers("gelu_and_mul", "gelu_and_mul gate sweep", [&](const vt::ExecContext& ctx) {
    Bytes out(static_cast<std::size_t>(rows * kD) * 4, 0xEE);
    vt::GeluAndMul(ctx, Tensor::Contiguous(out.data(), DType::kF32, {rows, kD}),
                   Tensor::Contiguous(x.data(), DType::kF32, {rows, 2 * kD}));
    return Outs{{DType::kF32, out}};
  });
}

}  // namespace
