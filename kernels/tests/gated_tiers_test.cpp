// The vector tier of rms_norm_gated and rms_norm_gated_quant_fp8 against the
// portable tier, byte for byte
// (row_tiers_util.h's comparison: portable at 1 thread the reference, each
// tier OpTiers lists at 1, 2 and 3 threads). Shapes are drawn around the
// vector width on purpose: rows below / at / above the 16 lanes of a panel
// and not a multiple of them, row lengths below the width, at it and past
// it; gates rank 2 and rank 3, packed and with a padded token stride; every
// x / gate / weight dtype and both outputs (fp8: gate and weight in x's
// dtype, as its contract says; input scales that put codes in the e4m3
// subnormal and saturated ranges); silu and sigmoid. Inputs are
// random from one printed seed (VT_TEST_SEED overrides it): a quarter of the
// cases sprinkle specials (NaN, +-inf, subnormals, past the f16 / bf16
// range), and half of the f32 gates are drawn from expf's edge bands, where
// the vector expf's main path ends and the scalar expf takes over.
// A CPU without AVX-512 has no tier to compare: skipped with its reason.
#define VT_TIER_TEST_BINARY "vt_gated_tiers_test"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/act/silu_tiers.h"
#include "cpu/norm/gated_tiers.h"
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

const DType kIn[] = {DType::kF32, DType::kF16, DType::kBF16};
const DType kOut[] = {DType::kF32, DType::kBF16};

// Overwrites every element of an f32 buffer with a value from expf's edge
// bands (row_tiers_util.h).
void EdgeBands(std::mt19937_64& rng, Bytes& b) {
  for (std::size_t k = 0; k + 4 <= b.size(); k += 4) {
    const float v = vt::tiertest::ExpEdgeValue(rng);
    std::memcpy(b.data() + k, &v, 4);
  }
}

// Every step-th f32 bit pattern from 0 (both signs, NaNs, infinities,
// subnormals): the sweep inputs of the encode checks below.
std::vector<float> EveryF32(uint32_t step) {
  std::vector<float> q;
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += step) {
    const uint32_t u = static_cast<uint32_t>(b);
    float f;
    std::memcpy(&f, &u, 4);
    q.push_back(f);
  }
  return q;
}

struct Case {
  std::vector<int64_t> shape;  // x / out: [rows, d] or [t, hv, d]
  int64_t pad = 0;             // extra elements per gate token (0: packed)
  DType xd, gd, wd, od;  // od u8: rms_norm_gated_quant_fp8
  bool sigmoid, specials, edges;
  float input_scale = 1.0f;  // fp8 only
};

void RunCase(std::mt19937_64& rng, const Case& c) {
  const int64_t d = c.shape.back();
  int64_t n = 1;
  for (int64_t e : c.shape) n *= e;
  const int64_t tokens = c.shape[0], per_token = n / tokens;
  const int64_t g_tok = per_token + c.pad;
  const Bytes x = RandomBytes(rng, c.xd, n, c.specials);
  Bytes g = RandomBytes(rng, c.gd, tokens * g_tok, c.specials);
  if (c.edges) EdgeBands(rng, g);
  const Bytes w = RandomBytes(rng, c.wd, d, c.specials);
  const float eps = c.specials ? 1e-30f : 1e-6f;
  const bool fp8 = c.od == DType::kU8;
  const char* op = fp8 ? "rms_norm_gated_quant_fp8" : "rms_norm_gated";
  std::string id = std::string(op) + " shape=[";
  for (std::size_t k = 0; k < c.shape.size(); ++k) id += (k ? "," : "") + std::to_string(c.shape[k]);
  id += "] pad=" + std::to_string(c.pad) + " x=" + std::string(vt::Name(c.xd)) + " gate=" +
        std::string(vt::Name(c.gd)) + " w=" + std::string(vt::Name(c.wd)) + " out=" + std::string(vt::Name(c.od)) +
        (c.sigmoid ? " sigmoid" : " silu") + (c.edges ? " expf-edges" : "") + (c.specials ? " specials" : "") +
        (fp8 ? " input_scale=" + std::to_string(c.input_scale) : "");
  std::vector<int64_t> g_strides(c.shape.size(), 1);
  if (c.shape.size() == 3) g_strides[1] = d;
  g_strides[0] = g_tok;
  CompareTiers(op, id, [&](const vt::ExecContext& ctx) {
    Bytes xc = x, gc = g, wc = w, out(static_cast<std::size_t>(n) * vt::SizeOf(c.od), 0xEE);
    const Tensor ot = Tensor::Contiguous(out.data(), c.od, c.shape), xt = Tensor::Contiguous(xc.data(), c.xd, c.shape);
    const Tensor gt = Tensor::Strided(gc.data(), c.gd, c.shape, g_strides), wt = Tensor::Contiguous(wc.data(), c.wd, {d});
    if (fp8) {
      vt::RmsNormGatedQuantFp8(ctx, ot, xt, gt, wt, {eps, c.sigmoid}, c.input_scale);
    } else {
      vt::RmsNormGated(ctx, ot, xt, gt, wt, {eps, c.sigmoid});
    }
    return Outs{{c.od, out}};
  });
}

TEST(GatedTiers, RmsNormGatedEveryTierMatchesPortable) {
  if (!vt::IsaSupported(Isa::kAvx512)) GTEST_SKIP() << "no AVX-512: rms_norm_gated has no tier to run here";
  std::mt19937_64 rng(vt::tiertest::Seed() + 7);
  int cases = 0;
  for (int64_t rows : {1, 2, 3, 15, 16, 17, 33, 64}) {
    for (int64_t d : {1, 2, 7, 15, 16, 17, 31, 32, 33, 100, 129}) {
      for (DType xd : kIn) {
        for (DType gd : kIn) {
          for (DType od : kOut) {
            Case c{{rows, d}, 0, xd, gd, kIn[cases % 3], od, (cases & 1) != 0, cases % 4 == 3, false};
            c.edges = gd == DType::kF32 && cases % 2 == 0;
            if (cases % 3 == 1) c.pad = 1 + cases % 5;  // a padded gate row stride
            if (cases % 5 == 2 && rows % 3 == 0) c.shape = {rows / 3, 3, d};  // rank 3: [T, Hv, D]
            RunCase(rng, c);
            if (HasFatalFailure()) return;
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_GT(cases, 0);
}

TEST(GatedTiers, RmsNormGatedQuantFp8EveryTierMatchesPortable) {
  if (!vt::IsaSupported(Isa::kAvx512)) GTEST_SKIP() << "no AVX-512: rms_norm_gated_quant_fp8 has no tier to run here";
  std::mt19937_64 rng(vt::tiertest::Seed() + 9);
  const float kScales[] = {1.0f, 0.0625f, 3.7f, 40.0f, 1e-3f};  // codes from subnormal to saturated
  int cases = 0;
  for (int64_t rows : {1, 3, 16, 17, 33}) {
    for (int64_t d : {1, 7, 15, 16, 17, 33, 129}) {
      for (DType xd : kIn) {
        for (int sig = 0; sig < 2; ++sig) {
          Case c{{rows, d}, 0, xd, xd, xd, DType::kU8, sig != 0, cases % 4 == 3, false, kScales[cases % 5]};
          c.edges = xd == DType::kF32 && cases % 2 == 0;
          if (cases % 3 == 1) c.pad = 1 + cases % 5;
          if (cases % 5 == 2 && rows % 3 == 0) c.shape = {rows / 3, 3, d};
          RunCase(rng, c);
          if (HasFatalFailure()) return;
          ++cases;
        }
      }
    }
  }
  EXPECT_GT(cases, 0);
}

// Outputs of 8 MiB and more are streamed (non-temporal stores after each
// row's unaligned head): ragged rows so that heads of every length occur.
TEST(GatedTiers, RmsNormGatedStreamedRowsMatchPortable) {
  if (!vt::IsaSupported(Isa::kAvx512)) GTEST_SKIP() << "no AVX-512: rms_norm_gated has no tier to run here";
  std::mt19937_64 rng(vt::tiertest::Seed() + 8);
  RunCase(rng, {{523, 4101}, 0, DType::kF32, DType::kBF16, DType::kBF16, DType::kF32, false, false, false});
  RunCase(rng, {{1031, 4099}, 3, DType::kBF16, DType::kF32, DType::kF32, DType::kBF16, true, true, true});
}

// The fp8 tier's vector e4m3 encode against the codec (F32ToFp8E4M3): every
// 61st f32 bit pattern (both signs, NaNs, infinities, subnormals), then every
// rounding tie of the encode and its two neighbours - the subnormal codes'
// (k + 1/2) / 512 and each normal binade's midpoints between 3-bit mantissas.
TEST(GatedTiers, Fp8EncodeMatchesCodec) {
  if (!vt::IsaSupported(Isa::kAvx512)) GTEST_SKIP() << "no AVX-512: the fp8 tier's encode is not run here";
  std::vector<float> q = EveryF32(61);
  std::vector<float> ties;
  for (int k = 0; k < 8; ++k) ties.push_back((static_cast<float>(k) + 0.5f) / 512.0f);
  for (uint32_t e = 0x3C800000u; e < 0x43E00000u; e += 0x00100000u) {  // 3-bit mantissa steps
    const uint32_t mid = e + 0x00080000u;
    float f;
    std::memcpy(&f, &mid, 4);
    ties.push_back(f);
  }
  for (float t : ties) {
    for (float v : {std::nextafter(t, 0.0f), t, std::nextafter(t, 1e9f)}) {
      q.push_back(v);
      q.push_back(-v);
    }
  }
  std::vector<uint8_t> codes(q.size());
  vt::cpu::avx512::Fp8CodesSpan(q.data(), codes.data(), static_cast<int64_t>(q.size()));
  int64_t bad = 0;
  for (std::size_t k = 0; k < q.size(); ++k) {
    const uint8_t want = vt::F32ToFp8E4M3(q[k]);
    if (codes[k] != want && bad++ < 5) {
      uint32_t u;
      std::memcpy(&u, &q[k], 4);
      ADD_FAILURE() << "f32 bits 0x" << std::hex << u << ": tier code 0x" << int(codes[k]) << ", codec 0x" << int(want)
                    << std::dec << " (repro: vt_gated_tiers_test --gtest_filter=GatedTiers.Fp8EncodeMatchesCodec)";
    }
  }
  EXPECT_EQ(bad, 0) << "of " << q.size() << " inputs";
}

// rms_norm_gated_group (gate before norm): ragged hidden sizes and group
// sizes below / at / above the width and not dividing it, with and without
// a weight, every x / gate / out dtype (x f16 exercises the f16 round trip).
TEST(GatedTiers, RmsNormGatedGroupEveryTierMatchesPortable) {
  if (!vt::IsaSupported(Isa::kAvx512)) GTEST_SKIP() << "no AVX-512: rms_norm_gated_group has no tier to run here";
  std::mt19937_64 rng(vt::tiertest::Seed() + 11);
  int cases = 0;
  struct Hg {
    int64_t hidden;
    int n_groups;
  };
  for (int64_t rows : {1, 3, 17}) {
    for (Hg hg : {Hg{1, 1}, Hg{7, 1}, Hg{16, 1}, Hg{17, 1}, Hg{34, 2}, Hg{48, 3}, Hg{66, 6}, Hg{129, 3}, Hg{256, 4}}) {
      for (DType xd : kIn) {
        for (DType gd : kIn) {
          for (DType od : kOut) {
            const int64_t h = hg.hidden;
            const bool with_w = cases % 3 != 0, specials = cases % 4 == 3;
            const DType wd = kIn[cases % 3];
            const Bytes x = RandomBytes(rng, xd, rows * h, specials);
            Bytes g = RandomBytes(rng, gd, rows * h, specials);
            if (gd == DType::kF32 && cases % 2 == 0) EdgeBands(rng, g);
            const Bytes w = RandomBytes(rng, wd, h, specials);
            const std::string id = "rms_norm_gated_group rows=" + std::to_string(rows) + " hidden=" + std::to_string(h) +
                                   " n_groups=" + std::to_string(hg.n_groups) + " x=" + std::string(vt::Name(xd)) +
                                   " gate=" + std::string(vt::Name(gd)) + " out=" + std::string(vt::Name(od)) +
                                   (with_w ? " w=" + std::string(vt::Name(wd)) : " no weight");
            CompareTiers("rms_norm_gated_group", id, [&](const vt::ExecContext& ctx) {
              Bytes xc = x, gc = g, wc = w, out(static_cast<std::size_t>(rows * h) * vt::SizeOf(od), 0xEE);
              const Tensor wt = Tensor::Contiguous(wc.data(), wd, {h});
              vt::RmsNormGatedGroup(ctx, Tensor::Contiguous(out.data(), od, {rows, h}),
                                    Tensor::Contiguous(xc.data(), xd, {rows, h}),
                                    Tensor::Contiguous(gc.data(), gd, {rows, h}), with_w ? &wt : nullptr,
                                    {specials ? 1e-30f : 1e-6f, hg.n_groups, 1});
              return Outs{{od, out}};
            });
            if (HasFatalFailure()) return;
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_GT(cases, 0);
}

// The tier's f16 round trip against the codec's (F16ToF32(F32ToF16(v))):
// every 61st f32 bit pattern and every f16 rounding tie with its neighbours
// (midpoints between adjacent f16 values, subnormal and overflow edges
// included). NaN matches NaN (the project's rule), every other bit must.
TEST(GatedTiers, F16RoundTripMatchesCodec) {
  if (!vt::IsaSupported(Isa::kAvx512)) GTEST_SKIP() << "no AVX-512: the tier's f16 round trip is not run here";
  std::vector<float> q = EveryF32(61);
  for (uint32_t h = 0; h < 0x7C00u; ++h) {  // midpoint of h and h + 1 (0x7BFF + 1 is inf)
    const float mid = (vt::F16ToF32(static_cast<uint16_t>(h)) + vt::F16ToF32(static_cast<uint16_t>(h + 1))) / 2.0f;
    for (float v : {std::nextafter(mid, 0.0f), mid, std::nextafter(mid, 1e9f)}) {
      q.push_back(v);
      q.push_back(-v);
    }
  }
  std::vector<float> got(q.size());
  vt::cpu::avx512::RoundThroughF16Span(q.data(), got.data(), static_cast<int64_t>(q.size()));
  int64_t bad = 0;
  for (std::size_t k = 0; k < q.size(); ++k) {
    const float want = vt::F16ToF32(vt::F32ToF16(q[k]));
    if (std::isnan(want) && std::isnan(got[k])) continue;
    if (std::memcmp(&want, &got[k], 4) != 0 && bad++ < 5) {
      ADD_FAILURE() << "f32 " << q[k] << ": tier " << got[k] << ", codec " << want
                    << " (repro: vt_gated_tiers_test --gtest_filter=GatedTiers.F16RoundTripMatchesCodec)";
    }
  }
  EXPECT_EQ(bad, 0) << "of " << q.size() << " inputs";
}

// The vector expf must have passed its start-up self-check here, or the
// comparisons above would only have exercised the scalar fallback.
TEST(GatedTiers, VectorExpfIsInUse) {
  if (!vt::IsaSupported(Isa::kAvx512)) GTEST_SKIP() << "no AVX-512: rms_norm_gated has no tier to run here";
  EXPECT_NE(vt::cpu::VectorExpfTable(), nullptr)
      << "the vector expf disagrees with this process's expf: rms_norm_gated's avx512 tier runs the scalar expf";
}

}  // namespace
