// The vector tiers of the row / elementwise ops (rms_norm, rms_norm_quant_fp8,
// l2_norm, mul_scalar, mul_col_vec_f32, silu_and_mul) against the portable tier, byte for byte:
// every shape below is run on the portable tier at 1 thread and on each
// vector tier the CPU has at 1, 2 and 3 threads, and every output byte (the
// in-place residual too) must match. Shapes are drawn around the vector
// widths on purpose: rows below / at / above the lane counts 8 and 16 and not
// a multiple of them, row lengths below the width, at it and one past it.
// Inputs are random from one printed seed (VT_TEST_SEED overrides it); a
// quarter of the cases sprinkle specials (NaN, +-inf, subnormals, values
// past the bf16 / f16 range) so the NaN and rounding paths are compared too.
// Two NaNs compare equal whatever their sign and payload (the project's rule,
// docs/special-values.md; row_tiers_util.h says why); every other byte must
// match.
// A tier the CPU lacks is skipped with its reason (GTEST_SKIP, counted).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cpu/act/silu_tiers.h"
#include "row_tiers_util.h"
#include "vt/codec.h"
#include "vt/ops.h"

namespace {

using vt::DType;
using vt::Isa;
using vt::Tensor;
using vt::tiertest::Bytes;
using vt::tiertest::CompareTiers;
using vt::tiertest::Outs;
using vt::tiertest::RandomBytes;

const std::vector<int64_t> kRows = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64};
const std::vector<int64_t> kCols = {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 129};
const DType kIn[] = {DType::kF32, DType::kF16, DType::kBF16};
const DType kOut[] = {DType::kF32, DType::kBF16};

TEST(RowTiers, RmsNormEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed());
  int cases = 0;
  for (int64_t t : kRows) {
    for (int64_t h : kCols) {
      for (DType xd : kIn) {
        for (DType od : kOut) {
          for (int res = 0; res < 3; ++res) {  // none, f32, bf16 residual
            const bool gemma = (cases & 1) != 0;
            const bool specials = (cases % 4) == 3;
            const Bytes x = RandomBytes(rng, xd, t * h, specials);
            const DType wd = kIn[cases % 3];  // f32, f16, bf16 weights in turn
            const Bytes w = RandomBytes(rng, wd, h, specials);
            const DType rd = res == 2 ? DType::kBF16 : DType::kF32;
            const Bytes r0 = RandomBytes(rng, rd, t * h, specials);
            const float eps = (cases % 5 == 0) ? 1e-30f : 1e-6f;
            const std::string id = "rms_norm T=" + std::to_string(t) + " H=" + std::to_string(h) + " x=" +
                                   std::string(vt::Name(xd)) + " out=" + std::string(vt::Name(od)) +
                                   " w=" + std::string(vt::Name(wd)) + " residual=" + (res == 0 ? "none" : std::string(vt::Name(rd))) +
                                   (gemma ? " gemma" : "");
            CompareTiers("rms_norm", id, [&](const vt::ExecContext& ctx) {
              Bytes xc = x, wc = w, rc = r0, out(static_cast<std::size_t>(t * h) * vt::SizeOf(od), 0xEE);
              const Tensor rt = Tensor::Contiguous(rc.data(), rd, {t, h});
              vt::RmsNorm(ctx, Tensor::Contiguous(out.data(), od, {t, h}), Tensor::Contiguous(xc.data(), xd, {t, h}),
                          Tensor::Contiguous(wc.data(), wd, {h}),
                          {eps, gemma}, res == 0 ? nullptr : &rt);
              Outs o{{od, out}};
              if (res != 0) o.push_back({rd, rc});
              return o;
            });
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_GT(cases, 0);
}

// rms_norm_quant_fp8: the panel's bf16 values (into out_bf16 when given, else
// a scratch) and their e4m3 codes; input scales that put codes in the e4m3
// subnormal and saturated ranges as well as the normal one.
TEST(RowTiers, RmsNormQuantFp8EveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 10);
  const float kScales[] = {1.0f, 0.0625f, 3.7f, 40.0f, 1e-3f};
  int cases = 0;
  for (int64_t t : {int64_t{1}, int64_t{3}, int64_t{8}, int64_t{9}, int64_t{17}, int64_t{33}}) {
    for (int64_t h : kCols) {
      for (DType xd : kIn) {
        for (int res = 0; res < 3; ++res) {  // none, f32, bf16 residual
          const bool gemma = (cases & 1) != 0, with_bf16 = (cases % 3) != 0, specials = (cases % 4) == 3;
          const float scale = kScales[cases % 5];
          const Bytes x = RandomBytes(rng, xd, t * h, specials);
          const DType wd = kIn[(cases / 3) % 3];
          const Bytes w = RandomBytes(rng, wd, h, specials);
          const DType rd = res == 2 ? DType::kBF16 : DType::kF32;
          const Bytes r0 = RandomBytes(rng, rd, t * h, specials);
          const std::string id = "rms_norm_quant_fp8 T=" + std::to_string(t) + " H=" + std::to_string(h) + " x=" +
                                 std::string(vt::Name(xd)) + " w=" + std::string(vt::Name(wd)) + " residual=" +
                                 (res == 0 ? "none" : std::string(vt::Name(rd))) + (gemma ? " gemma" : "") +
                                 (with_bf16 ? " out_bf16" : "") + " input_scale=" + std::to_string(scale);
          CompareTiers("rms_norm_quant_fp8", id, [&](const vt::ExecContext& ctx) {
            Bytes xc = x, wc = w, rc = r0, codes(static_cast<std::size_t>(t * h), 0xEE),
                  bf(static_cast<std::size_t>(t * h) * 2, 0xEE);
            const Tensor rt = Tensor::Contiguous(rc.data(), rd, {t, h});
            const Tensor bt = Tensor::Contiguous(bf.data(), DType::kBF16, {t, h});
            vt::RmsNormQuantFp8(ctx, Tensor::Contiguous(codes.data(), DType::kU8, {t, h}), with_bf16 ? &bt : nullptr,
                                Tensor::Contiguous(xc.data(), xd, {t, h}), Tensor::Contiguous(wc.data(), wd, {h}),
                                {1e-6f, gemma}, res == 0 ? nullptr : &rt, scale);
            Outs o{{DType::kU8, codes}, {DType::kBF16, bf}};
            if (res != 0) o.push_back({rd, rc});
            return o;
          });
          ++cases;
        }
      }
    }
  }
  EXPECT_GT(cases, 0);
}

// Outputs of 8 MiB and more take the streaming path (non-temporal stores
// after an ordinary head up to the first aligned address of each row): rows
// of 2053 elements start at every alignment, and 1030 / 2050 rows leave a
// partial last panel.
TEST(RowTiers, RmsNormStreamedOutputsMatchPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 5);
  constexpr int64_t h = 2053;
  for (DType od : kOut) {
    const int64_t t = od == DType::kF32 ? 1030 : 2050;  // >= 8 MiB of output either way
    for (int res = 0; res < 2; ++res) {
      const Bytes x = RandomBytes(rng, DType::kBF16, t * h, false);
      const Bytes w = RandomBytes(rng, DType::kF32, h, false);
      const Bytes r0 = RandomBytes(rng, DType::kF32, t * h, false);
      const std::string id = "rms_norm streamed T=" + std::to_string(t) + " H=2053 x=bf16 out=" +
                             std::string(vt::Name(od)) + (res ? " residual=f32" : "");
      CompareTiers("rms_norm", id, [&](const vt::ExecContext& ctx) {
        Bytes xc = x, wc = w, rc = r0, out(static_cast<std::size_t>(t * h) * vt::SizeOf(od), 0xEE);
        const Tensor rt = Tensor::Contiguous(rc.data(), DType::kF32, {t, h});
        vt::RmsNorm(ctx, Tensor::Contiguous(out.data(), od, {t, h}), Tensor::Contiguous(xc.data(), DType::kBF16, {t, h}),
                    Tensor::Contiguous(wc.data(), DType::kF32, {h}), {1e-6f, res == 1}, res ? &rt : nullptr);
        Outs o{{od, out}};
        if (res) o.push_back({DType::kF32, rc});
        return o;
      });
    }
  }
}

TEST(RowTiers, L2NormEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 1);
  int cases = 0;
  for (int64_t t : kRows) {
    for (int64_t h : kCols) {
      for (DType xd : kIn) {
        for (DType od : kOut) {
          const Bytes x = RandomBytes(rng, xd, t * h, (cases % 4) == 3);
          const std::string id = "l2_norm T=" + std::to_string(t) + " D=" + std::to_string(h) + " x=" +
                                 std::string(vt::Name(xd)) + " out=" + std::string(vt::Name(od));
          CompareTiers("l2_norm", id, [&](const vt::ExecContext& ctx) {
            Bytes xc = x, out(static_cast<std::size_t>(t * h) * vt::SizeOf(od), 0xEE);
            vt::L2Norm(ctx, Tensor::Contiguous(out.data(), od, {t, h}), Tensor::Contiguous(xc.data(), xd, {t, h}),
                       {1e-6f});
            return Outs{{od, out}};
          });
          ++cases;
        }
      }
    }
  }
  EXPECT_GT(cases, 0);
}

TEST(RowTiers, MulScalarEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 2);
  // Flat lengths around the vector widths and the pool's block (4096).
  const std::vector<int64_t> lengths = {1, 5, 8, 15, 16, 17, 31, 33, 100, 4095, 4096, 4097, 3 * 4096 + 7};
  int cases = 0;
  for (int64_t n : lengths) {
    for (DType xd : kIn) {
      for (DType od : kOut) {
        const Bytes x = RandomBytes(rng, xd, n, (cases % 4) == 3);
        const float s = (cases % 2) ? -0.3125f : 3.0e20f;  // the second overflows some products
        const std::string id = "mul_scalar n=" + std::to_string(n) + " x=" + std::string(vt::Name(xd)) +
                               " out=" + std::string(vt::Name(od)) + " s=" + std::to_string(s);
        CompareTiers("mul_scalar", id, [&](const vt::ExecContext& ctx) {
          Bytes xc = x, out(static_cast<std::size_t>(n) * vt::SizeOf(od), 0xEE);
          vt::MulScalar(ctx, Tensor::Contiguous(out.data(), od, {n}), Tensor::Contiguous(xc.data(), xd, {n}), s);
          return Outs{{od, out}};
        });
        ++cases;
      }
    }
  }
  EXPECT_GT(cases, 0);
}

TEST(RowTiers, MulColVecEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 3);
  int cases = 0;
  for (int64_t m : kRows) {
    for (int64_t n : kCols) {
      for (DType xd : {DType::kF32, DType::kBF16}) {
        const int64_t stride = n + (cases % 3);  // padded rows: the pad must stay untouched
        const Bytes x = RandomBytes(rng, xd, m * stride, (cases % 4) == 3);
        const Bytes col = RandomBytes(rng, DType::kF32, n, (cases % 4) == 3);
        const std::string id = "mul_col_vec_f32 M=" + std::to_string(m) + " N=" + std::to_string(n) +
                               " stride=" + std::to_string(stride) + " x=" + std::string(vt::Name(xd));
        CompareTiers("mul_col_vec_f32", id, [&](const vt::ExecContext& ctx) {
          Bytes xc = x, cc = col;
          vt::MulColVecF32(ctx, Tensor::Strided(xc.data(), xd, {m, n}, {stride, 1}),
                           Tensor::Contiguous(cc.data(), DType::kF32, {n}));
          return Outs{{xd, xc}};
        });
        ++cases;
      }
    }
  }
  EXPECT_GT(cases, 0);
}

TEST(RowTiers, SiluAndMulEveryTierMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::mt19937_64 rng(vt::tiertest::Seed() + 4);
  int cases = 0;
  for (int64_t t : {int64_t{1}, int64_t{3}, int64_t{17}}) {
    for (int64_t d : kCols) {
      for (DType xd : kIn) {
        for (DType od : kOut) {
          Bytes x = RandomBytes(rng, xd, t * 2 * d, (cases % 4) == 3);
          if (xd == DType::kF32 && cases % 2 == 0) {
            // expf's edge bands (row_tiers_util.h, ExpEdgeValue)
            for (int64_t k = 0; k < t * 2 * d; k += 2) {
              const float v = vt::tiertest::ExpEdgeValue(rng);
              std::memcpy(x.data() + k * 4, &v, 4);
            }
          }
          vt::tiertest::CompareGluTiers("silu_and_mul", vt::SiluAndMul, t, d, xd, od, x);
          ++cases;
        }
      }
    }
  }
  EXPECT_GT(cases, 0);
}

// The silu tier's vector expf must have passed its start-up self-check here,
// or the comparisons above would only have exercised its scalar fallback.
TEST(RowTiers, SiluVectorExpfIsInUse) {
  if (!vt::IsaSupported(Isa::kAvx512)) GTEST_SKIP() << "no AVX-512: silu_and_mul has no tier to run here";
  EXPECT_NE(vt::cpu::VectorExpfTable(), nullptr)
      << "the vector expf disagrees with this process's expf (another glibc build?): the avx512 tier of "
         "silu_and_mul falls back to the scalar expf - correct bytes, but none of its vector path is tested";
}

// The vector expf against the loaded expf through silu_and_mul with up = 1:
// every 509th f32 bit pattern as the gate (all signs, magnitudes, NaNs).
TEST(RowTiers, SiluExpfSweepMatchesPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  constexpr int64_t kD = 1 << 20;
  const int64_t rows = ((int64_t{1} << 32) / 509 + kD - 1) / kD;
  std::vector<float> x(static_cast<std::size_t>(rows * 2 * kD), 1.0f);
  uint64_t bits = 0;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < kD; ++j, bits += 509) {
      const uint32_t u = static_cast<uint32_t>(bits);
      std::memcpy(&x[static_cast<std::size_t>(r * 2 * kD + j)], &u, 4);
    }
  }
  CompareTiers("silu_and_mul", "silu_and_mul expf sweep", [&](const vt::ExecContext& ctx) {
    Bytes out(static_cast<std::size_t>(rows * kD) * 4, 0xEE);
    vt::SiluAndMul(ctx, Tensor::Contiguous(out.data(), DType::kF32, {rows, kD}),
                   Tensor::Contiguous(x.data(), DType::kF32, {rows, 2 * kD}));
    return Outs{{DType::kF32, out}};
  });
}

// The tiers' codecs over whole bit-pattern spaces, through mul_scalar by 1
// (x * 1 is x, NaN quieted): every f16 pattern widened, and f32 patterns
// (every 997th, plus the rounding edges of each bf16 step) rounded to bf16.
TEST(RowTiers, CodecSweepsMatchPortable) {
  VT_REQUIRE_A_VECTOR_TIER();
  std::vector<uint16_t> halves(65536);
  for (uint32_t i = 0; i < 65536; ++i) halves[i] = static_cast<uint16_t>(i);
  std::vector<uint32_t> words;
  for (uint64_t i = 0; i < (uint64_t{1} << 32); i += 997) words.push_back(static_cast<uint32_t>(i));
  for (uint32_t hi = 0; hi < 65536; hi += 3) {  // ties and their neighbours
    for (uint32_t lo : {0x7FFFu, 0x8000u, 0x8001u}) words.push_back((hi << 16) | lo);
  }
  for (DType od : kOut) {
    CompareTiers("mul_scalar", "mul_scalar f16 sweep out=" + std::string(vt::Name(od)), [&](const vt::ExecContext& ctx) {
      Bytes out(halves.size() * vt::SizeOf(od), 0xEE);
      vt::MulScalar(ctx, Tensor::Contiguous(out.data(), od, {65536}),
                    Tensor::Contiguous(halves.data(), DType::kF16, {65536}), 1.0);
      return Outs{{od, out}};
    });
  }
  const auto n = static_cast<int64_t>(words.size());
  CompareTiers("mul_scalar", "mul_scalar f32->bf16 sweep", [&](const vt::ExecContext& ctx) {
    Bytes out(words.size() * 2, 0xEE);
    vt::MulScalar(ctx, Tensor::Contiguous(out.data(), DType::kBF16, {n}),
                  Tensor::Contiguous(words.data(), DType::kF32, {n}), 1.0);
    return Outs{{DType::kBF16, out}};
  });
}

}  // namespace
