// The vector tiers of the NVFP4 quantizer (scaled_fp4_quant and the fused
// silu_mul / silu_and_mul / sigmoid_gate + quant ops) against the portable
// tier, byte for byte (row_tiers_util.h: portable at 1 thread is the
// reference; each tier the op lists runs at 1, 2 and 3 threads and must count
// its own run). The outputs are u8 codes: every byte must match, no NaN
// latitude. Shapes: rows 1..130 (130 crosses the swizzled layout's 128-row
// tile), K from one group to 16 groups; f32 / f16 / bf16 inputs; both scale
// layouts; gsi 0, moderate, tiny and saturating. A quarter of the random cases
// sprinkle specials (NaN, +-inf, subnormals, values past bf16's range); one
// test walks every e2m1 decision boundary (and its neighbours) with the
// block scale pinned to 1. Seed printed once (VT_TEST_SEED overrides it).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define VT_TIER_TEST_BINARY "vt_fp4_tiers_test"
#include "cpu/quant/fp4_scale_code.h"
#include "row_tiers_util.h"
#include "vt/codec.h"
#include "vt/ops_quant.h"

namespace {

using vt::DType;
using vt::Fp4ScaleLayout;
using vt::Tensor;
using vt::tiertest::Bytes;
using vt::tiertest::CompareTiers;
using vt::tiertest::Outs;
using vt::tiertest::RandomBytes;

const DType kIn[] = {DType::kF32, DType::kF16, DType::kBF16};
const float kGsi[] = {1.0f, 0.0f, 37.5f, 1.0e-30f, 3.0e6f};

int64_t RoundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// The scale tensor's shape for a layout.
std::vector<int64_t> ScaleShape(int64_t m, int64_t k, Fp4ScaleLayout layout) {
  if (layout == Fp4ScaleLayout::kLinear) return {m, k / 16};
  return {RoundUp(m, 128), RoundUp(k / 16, 4)};
}

// Runs `call(ctx, packed, scale)` on fresh 0xEE-filled outputs.
template <class Call>
Outs QuantOuts(const vt::ExecContext& ctx, int64_t m, int64_t k, Fp4ScaleLayout layout, Call&& call) {
  const std::vector<int64_t> ss = ScaleShape(m, k, layout);
  Bytes packed(static_cast<size_t>(m * k / 2), 0xEE), scale(static_cast<size_t>(ss[0] * ss[1]), 0xEE);
  call(ctx, Tensor::Contiguous(packed.data(), DType::kU8, {m, k / 2}),
       Tensor::Contiguous(scale.data(), DType::kU8, ss));
  return Outs{{DType::kU8, packed}, {DType::kU8, scale}};
}

TEST(Fp4Tiers, ScaledFp4QuantEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 20);
  int cases = 0;
  for (int64_t m : {1, 2, 3, 5, 17, 130}) {
    for (int64_t k : {16, 32, 48, 80, 256}) {
      for (DType xd : kIn) {
        const Fp4ScaleLayout layout = (cases % 2) ? Fp4ScaleLayout::kCutlassSwizzled : Fp4ScaleLayout::kLinear;
        const float gsi = kGsi[cases % 5];
        const bool specials = (cases % 4) == 3;
        const Bytes x = RandomBytes(rng, xd, m * k, specials);
        const std::string id = "scaled_fp4_quant M=" + std::to_string(m) + " K=" + std::to_string(k) + " " +
                               std::string(vt::Name(xd)) + " gsi=" + std::to_string(gsi) +
                               (layout == Fp4ScaleLayout::kLinear ? " linear" : " swizzled") +
                               (specials ? " specials" : "");
        CompareTiers("scaled_fp4_quant", id, [&](const vt::ExecContext& ctx) {
          Bytes xc = x;
          return QuantOuts(ctx, m, k, layout, [&](const vt::ExecContext& c, const Tensor& p, const Tensor& s) {
            vt::ScaledFp4Quant(c, p, s, Tensor::Contiguous(xc.data(), xd, {m, k}), gsi, layout);
          });
        });
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 6 * 5 * 3);
}

// Every group: 6.0 first (amax 6, so with gsi 1 the scale is e4m3(1) = 1.0
// and the block 1: x * (1/block) is x itself), then 15 values from a list of
// each e2m1 decision boundary, its f32 neighbours, both signs, and specials.
TEST(Fp4Tiers, ScaledFp4QuantE2m1BoundariesMatchPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::vector<float> v;
  for (float b : {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f, 6.0f}) {
    for (float e : {std::nextafter(b, 0.0f), b, std::nextafter(b, 10.0f)}) {
      v.push_back(e);
      v.push_back(-e);
    }
  }
  for (float e : {0.0f, -0.0f, 1e-40f, -1e-40f, NAN, -NAN, INFINITY, -INFINITY, 7.0f, -1e30f}) v.push_back(e);
  const int64_t groups = (static_cast<int64_t>(v.size()) + 14) / 15, k = 16 * groups;
  for (DType xd : kIn) {
    Bytes x(static_cast<size_t>(k) * vt::SizeOf(xd));
    for (int64_t g = 0; g < groups; ++g) {
      for (int64_t j = 0; j < 16; ++j) {
        const size_t at = static_cast<size_t>(g * 15 + j - 1);
        const float f = j == 0 ? 6.0f : (at < v.size() ? v[at] : 0.5f);
        const int64_t e = g * 16 + j;
        if (xd == DType::kF32) {
          std::memcpy(x.data() + e * 4, &f, 4);
        } else {
          const uint16_t h = xd == DType::kF16 ? vt::F32ToF16(f) : vt::F32ToBF16(f);
          std::memcpy(x.data() + e * 2, &h, 2);
        }
      }
    }
    CompareTiers("scaled_fp4_quant", "e2m1 boundaries " + std::string(vt::Name(xd)),
                 [&](const vt::ExecContext& ctx) {
                   Bytes xc = x;
                   return QuantOuts(ctx, 1, k, Fp4ScaleLayout::kLinear,
                                    [&](const vt::ExecContext& c, const Tensor& p, const Tensor& s) {
                                      vt::ScaledFp4Quant(c, p, s, Tensor::Contiguous(xc.data(), xd, {1, k}), 1.0f);
                                    });
                 });
  }
}

TEST(Fp4Tiers, FusedFp4QuantOpsEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 21);
  int cases = 0;
  for (int64_t m : {1, 3, 17, 130}) {
    for (int64_t k : {16, 48, 96}) {
      for (DType xd : {DType::kF32, DType::kBF16}) {
        const Fp4ScaleLayout layout = (cases % 2) ? Fp4ScaleLayout::kCutlassSwizzled : Fp4ScaleLayout::kLinear;
        const float gsi = kGsi[cases % 5];
        const bool specials = (cases % 4) == 3;
        const Bytes a = RandomBytes(rng, xd, m * 2 * k, specials);
        const Bytes b = RandomBytes(rng, xd, m * k, specials);
        const Bytes gate32 = RandomBytes(rng, DType::kF32, m * k, specials);
        const std::string shape = " M=" + std::to_string(m) + " K=" + std::to_string(k) + " " +
                                  std::string(vt::Name(xd)) + " gsi=" + std::to_string(gsi) +
                                  (layout == Fp4ScaleLayout::kLinear ? " linear" : " swizzled") +
                                  (specials ? " specials" : "");
        CompareTiers("silu_mul_fp4_quant", "silu_mul_fp4_quant" + shape, [&](const vt::ExecContext& ctx) {
          Bytes g = a, u = b;
          return QuantOuts(ctx, m, k, layout, [&](const vt::ExecContext& c, const Tensor& p, const Tensor& s) {
            vt::SiluMulFp4Quant(c, p, s, Tensor::Contiguous(g.data(), xd, {m, k}),
                                Tensor::Contiguous(u.data(), xd, {m, k}), gsi, layout);
          });
        });
        CompareTiers("silu_and_mul_fp4_quant", "silu_and_mul_fp4_quant" + shape, [&](const vt::ExecContext& ctx) {
          Bytes gu = a;
          return QuantOuts(ctx, m, k, layout, [&](const vt::ExecContext& c, const Tensor& p, const Tensor& s) {
            vt::SiluAndMulFp4Quant(c, p, s, Tensor::Contiguous(gu.data(), xd, {m, 2 * k}), gsi, layout);
          });
        });
        CompareTiers("sigmoid_gate_fp4_quant", "sigmoid_gate_fp4_quant" + shape, [&](const vt::ExecContext& ctx) {
          Bytes at = b, gt = gate32;
          return QuantOuts(ctx, m, k, layout, [&](const vt::ExecContext& c, const Tensor& p, const Tensor& s) {
            vt::SigmoidGateFp4Quant(c, p, s, Tensor::Contiguous(at.data(), xd, {m, k}),
                                    Tensor::Contiguous(gt.data(), DType::kF32, {m, k}), gsi, layout);
          });
        });
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 4 * 3 * 2);
}

// The tiers' integer e4m3 encode of the block scale against the codec
// (F32ToFp8E4M3, libm-based). Every 61st f32 bit pattern, plus every
// input within 3 ulps of each rounding tie of the normal range (the mantissa's
// bit 19 alone set below the kept 3 bits) and of each range edge; with
// VT_E4M3_FULL=1 all 2^32 inputs (about 80 s here; run once on 2026-12-02:
// 0 differ).
TEST(Fp4Tiers, ScaleCodeMatchesCodec) {
  const bool full = std::getenv("VT_E4M3_FULL") != nullptr;
  const uint64_t step = full ? 1 : 61;
  uint64_t checked = 0;
  const auto check = [&](uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    ++checked;
    ASSERT_EQ(vt::cpu::fp4::ScaleCodeFromBits(b, f), vt::F32ToFp8E4M3(f)) << "input bits 0x" << std::hex << b;
  };
  for (uint64_t i = 0; i < (1ull << 32); i += step) check(static_cast<uint32_t>(i));
  std::vector<uint32_t> centres = {0x3C800000u, 0x43E00000u, 0x7F800000u};  // 2^-6, 448, inf
  for (uint32_t e = 0x79; e <= 0x87; ++e) {       // the binades from 2^-6 to 2^8
    for (uint32_t m = 0; m < 8; ++m) centres.push_back((e << 23) | (m << 20) | 0x80000u);
  }
  for (uint32_t c : centres) {
    for (uint32_t d = 0; d <= 6; ++d) {
      check(c - 3 + d);
      check((c - 3 + d) | 0x80000000u);
    }
  }
  EXPECT_GT(checked, (1ull << 32) / 61);
}

}  // namespace
