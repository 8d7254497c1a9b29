// oracles/scalar.h: soundness of the Bounded scalar. Each expression is
// evaluated twice through the same template: once with S = float (real f32
// arithmetic, the build uses -ffp-contract=off: the "kernel") and once with
// S = Bounded; every f32 result must lie within [B.v - B.e, B.v + B.e].
// Random inputs derive from one printed seed (override: VT_TEST_SEED=<n>).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "oracles/bits.h"
#include "oracles/scalar.h"

namespace vt::oracle {
namespace {

uint64_t TestSeed(uint64_t fallback) {
  const char* env = std::getenv("VT_TEST_SEED");
  const uint64_t s = env != nullptr ? std::strtoull(env, nullptr, 0) : fallback;
  std::printf("[ seed     ] %s: 0x%llx\n", ::testing::UnitTest::GetInstance()->current_test_info()->name(),
              static_cast<unsigned long long>(s));
  return s;
}

// What a kernel's store to `f` and re-read does to an f32 value (the oracle-
// side codec, which codec_agreement_test holds bit-equal to the kernels').
float StoreAndLoad(Fmt f, float x) { return static_cast<float>(DecodeBits(f, EncodeBits(f, x))); }

// |f - b.v| <= b.e, with IEEE specials: a NaN bound is never sound; an
// infinite bound admits anything; an f32 inf or NaN must be exactly b.v.
::testing::AssertionResult Sound(float f, const Bounded& b) {
  const double fd = f;
  if (std::isnan(b.v) && std::isnan(fd)) return ::testing::AssertionSuccess();  // inf - inf, both
  if (std::isnan(b.e)) return ::testing::AssertionFailure() << "NaN bound (v=" << b.v << ", f32=" << f << ")";
  if (std::isinf(b.e)) return ::testing::AssertionSuccess();
  const bool special = std::isnan(fd) || std::isinf(fd) || std::isinf(b.v);
  if (special ? fd == b.v : std::fabs(fd - b.v) <= b.e) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "f32 " << fd << " outside " << b.v << " +- " << b.e
                                       << " (|diff| = " << std::fabs(fd - b.v) << ")";
}

// ---- the expressions (one template, two scalar types) ----------------------
template <class S>
S Dot(const std::vector<float>& a, const std::vector<float>& b) {
  S s = In<S>(0.0);
  for (std::size_t i = 0; i < a.size(); ++i) s = s + In<S>(a[i]) * In<S>(b[i]);
  return s;
}
template <class S>
S SumSq(const std::vector<float>& x) { return Dot<S>(x, x); }
template <class S>
S SeqSum(const std::vector<float>& x) {
  S s = In<S>(0.0);
  for (float v : x) s = s + In<S>(v);
  return s;
}
// x_j / sqrt(mean(x^2) + eps), either dividing or multiplying by a reciprocal.
template <class S>
std::vector<S> RmsNormRow(const std::vector<float>& x, double eps, bool reciprocal) {
  const S r = Sqrt(SumSq<S>(x) / In<S>(static_cast<double>(x.size())) + Lit<S>(eps));
  const S inv = Lit<S>(1.0) / r;
  std::vector<S> out;
  for (float v : x) out.push_back(reciprocal ? In<S>(v) * inv : In<S>(v) / r);
  return out;
}
template <class S>
S Sigmoid(float z) { return Lit<S>(1.0) / (Lit<S>(1.0) + Exp(-In<S>(z))); }
template <class S>
S Silu(float z) { return In<S>(z) / (Lit<S>(1.0) + Exp(-In<S>(z))); }
template <class S>
S SoftCap(float x, double c) { return Tanh(In<S>(x) / Lit<S>(c)) * Lit<S>(c); }
template <class S>
S GeluTanh(float x) {
  const S v = In<S>(x);
  const S inner = Lit<S>(0.7978845608028654) * (v + Lit<S>(0.044715) * v * v * v);
  return Lit<S>(0.5) * v * (Lit<S>(1.0) + Tanh(inner));
}

std::vector<float> Normal(std::mt19937_64& rng, int n, double scale) {
  std::normal_distribution<double> nd(0.0, scale);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& x : v) x = static_cast<float>(nd(rng));
  return v;
}

// Mixed magnitudes over 12 decades, with sign.
std::vector<float> Wild(std::mt19937_64& rng, int n) {
  std::uniform_real_distribution<double> dec(-6.0, 6.0);
  std::normal_distribution<double> nd;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& x : v) x = static_cast<float>(nd(rng) * std::pow(10.0, dec(rng)));
  return v;
}

TEST(Bounded, SequentialSumsDotsAndSquaresAreSound) {
  std::mt19937_64 rng(TestSeed(0xb0d5));
  for (int n : {1, 2, 7, 100, 4096}) {
    const int trials = n >= 4096 ? 60 : 400;
    for (int t = 0; t < trials; ++t) {
      const auto a = t % 2 ? Wild(rng, n) : Normal(rng, n, t % 3 ? 1.0 : 1e-20);
      const auto b = Normal(rng, n, 3.0);
      float fs = 0.0f, fq = 0.0f, fd = 0.0f;
      for (int i = 0; i < n; ++i) {
        fs += a[i];
        fq += a[i] * a[i];
        fd += a[i] * b[i];
      }
      ASSERT_TRUE(Sound(fs, SeqSum<Bounded>(a))) << "sum n=" << n << " trial " << t;
      ASSERT_TRUE(Sound(fq, SumSq<Bounded>(a))) << "sum of squares n=" << n << " trial " << t;
      ASSERT_TRUE(Sound(fd, Dot<Bounded>(a, b))) << "dot n=" << n << " trial " << t;
      // The template instantiated with float is the same f32 evaluation.
      ASSERT_EQ(fs, SeqSum<float>(a));
    }
  }
  // n = 1: one exact add of 0 - no error at all.
  const Bounded one = SeqSum<Bounded>({0.3f});
  EXPECT_EQ(one.v, static_cast<double>(0.3f));
  EXPECT_EQ(one.e, 0.0);
}

TEST(Bounded, RmsNormalisationIsSound) {
  std::mt19937_64 rng(TestSeed(0x4a5));
  for (double eps : {1e-6, 1e-2}) {
    for (int n : {1, 7, 100, 4096}) {
      for (int t = 0; t < (n >= 4096 ? 6 : 60); ++t) {
        const auto x = t % 3 == 2 ? Wild(rng, n) : Normal(rng, n, t % 3 ? 1e-3 : 30.0);
        for (bool rec : {false, true}) {
          const auto f = RmsNormRow<float>(x, eps, rec);
          const auto b = RmsNormRow<Bounded>(x, eps, rec);
          for (int j = 0; j < n; ++j) {
            ASSERT_TRUE(Sound(f[j], b[j])) << "eps=" << eps << " n=" << n << " j=" << j << " rec=" << rec;
          }
        }
      }
    }
  }
}

TEST(Bounded, ActivationsAreSound) {
  std::mt19937_64 rng(TestSeed(0xac7));
  std::uniform_real_distribution<double> wide(-87.0, 87.0), narrow(-6.0, 6.0);
  for (int i = 0; i < 200000; ++i) {
    const float z = static_cast<float>(i % 2 ? wide(rng) : narrow(rng));
    ASSERT_TRUE(Sound(Sigmoid<float>(z), Sigmoid<Bounded>(z))) << "sigmoid z=" << z;
    ASSERT_TRUE(Sound(Silu<float>(z), Silu<Bounded>(z))) << "silu z=" << z;
    for (double c : {30.0, 50.0, 0.7}) {
      ASSERT_TRUE(Sound(SoftCap<float>(z, c), SoftCap<Bounded>(z, c))) << "soft_cap z=" << z << " c=" << c;
    }
    ASSERT_TRUE(Sound(GeluTanh<float>(z), GeluTanh<Bounded>(z))) << "gelu_tanh z=" << z;
  }
}

// Random expression trees mixing given values (inputs, exact constants,
// stored values) with computed ones, evaluated in f32 and Bounded together.
struct Pair {
  float f;
  Bounded b;
  std::string text;  // the expression, printed with a failure
};
std::string Num(double v) { return ::testing::PrintToString(v); }

Pair RandomExpr(std::mt19937_64& rng, int depth) {
  const uint64_t r = rng();
  if (depth == 0 || r % 9 == 0) {
    if (r % 3 == 0) {
      static const double kLits[] = {0.5, 2.0, 0.1, 1.0 / 3.0, 1e-6, 0.044715, 3.0};
      const double c = kLits[(r >> 8) % 7];
      return {static_cast<float>(c), Lit<Bounded>(c), "Lit(" + Num(c) + ")"};
    }
    std::normal_distribution<double> nd(0.0, (r >> 16) % 4 == 0 ? 100.0 : 1.0);
    const float x = static_cast<float>(nd(rng));
    return {x, In<Bounded>(x), "In(" + Num(x) + ")"};
  }
  const Pair a = RandomExpr(rng, depth - 1);
  const uint64_t op = (r >> 4) % 11;
  if (op <= 4) {
    const Pair c = RandomExpr(rng, depth - 1);
    switch (op) {
      case 0: return {a.f + c.f, a.b + c.b, "(" + a.text + " + " + c.text + ")"};
      case 1: return {a.f - c.f, a.b - c.b, "(" + a.text + " - " + c.text + ")"};
      case 4: return {a.f / c.f, a.b / c.b, "(" + a.text + " / " + c.text + ")"};
      default: return {a.f * c.f, a.b * c.b, "(" + a.text + " * " + c.text + ")"};
    }
  }
  switch (op) {
    case 5:
      return {std::sqrt(a.f * a.f + 1e-3f), Sqrt(a.b * a.b + Lit<Bounded>(1e-3)), "Sqrt(sq(" + a.text + ")+1e-3)"};
    case 6: return {std::exp(a.f), Exp(a.b), "Exp(" + a.text + ")"};
    case 7: return {std::tanh(a.f), Tanh(a.b), "Tanh(" + a.text + ")"};
    case 8:
      return {StoreAndLoad(Fmt::kBF16, a.f), Store(Fmt::kBF16, a.b), "Store16(" + a.text + ")"};
    case 9: return {-a.f, -a.b, "-" + a.text};
    default: return {a.f, Store(Fmt::kF32, a.b), "Store32(" + a.text + ")"};
  }
}

// A tree whose f32 evaluation turns NaN while the definition's value is not
// (an intermediate overflowed, then inf * 0 or inf - inf) is outside what a
// bound can describe (compare rejects a NaN output against a finite oracle
// whatever e is); such trees are counted, required to be rare, and skipped.
TEST(Bounded, RandomExpressionTreesAreSound) {
  std::mt19937_64 rng(TestSeed(0x7a3e));
  int vacuous = 0, nan_f32 = 0;
  const int kTrees = 100000;
  for (int i = 0; i < kTrees; ++i) {
    const Pair p = RandomExpr(rng, 1 + i % 6);
    if (std::isnan(p.f) && !std::isnan(p.b.v)) {
      ++nan_f32;
      continue;
    }
    ASSERT_TRUE(Sound(p.f, p.b)) << "tree " << i << ": " << p.text;
    if (std::isinf(p.b.e)) ++vacuous;
  }
  std::printf("[ trees    ] %d trees: %d with an infinite bound, %d with an f32 NaN (skipped)\n", kTrees, vacuous,
              nan_f32);
  // An infinite bound is sound but useless: it should be rare here.
  EXPECT_LT(vacuous, kTrees / 20);
  EXPECT_LT(nan_f32, kTrees / 100);
}

TEST(Bounded, StoreKeepsKernelValuesInsideTheStoredInterval) {
  std::mt19937_64 rng(TestSeed(0x5702e));
  std::normal_distribution<double> nd;
  std::uniform_real_distribution<double> dec(-7.0, -0.5), unit(-1.0, 1.0);
  for (int i = 0; i < 200000; ++i) {
    const double v = nd(rng) * (i % 2 ? 1.0 : 300.0);
    const double e = std::fabs(v) * std::pow(10.0, dec(rng));
    const float k = static_cast<float>(v + e * unit(rng));  // a kernel value within the bound
    if (std::fabs(k - v) > e) continue;
    const Bounded sb = Store(Fmt::kBF16, Bounded{v, e, false});
    ASSERT_TRUE(Sound(StoreAndLoad(Fmt::kBF16, k), sb)) << "bf16 v=" << v << " e=" << e << " k=" << k;
    const Bounded s8 = Store(Fmt::kFp8E4M3, Bounded{v, e, false});
    ASSERT_TRUE(Sound(StoreAndLoad(Fmt::kFp8E4M3, k), s8)) << "fp8 v=" << v << " e=" << e << " k=" << k;
  }
  // A bound inside one rounding cell stores exactly; a point value is given.
  const Bounded in_cell = Store(Fmt::kBF16, Bounded{1.001, 1e-4, false});
  EXPECT_TRUE(in_cell.v == 1.0 && in_cell.e == 0.0 && in_cell.given);
  const Bounded crossing = Store(Fmt::kBF16, Bounded{1.0 + 0x1p-8, 1e-6, false});  // a tie +- e
  EXPECT_EQ(crossing.e, 0x1p-7);
  EXPECT_FALSE(crossing.given);
}

TEST(Bounded, SingleOpsOnGivenValuesAreExact) {
  std::mt19937_64 rng(TestSeed(0xe8ac7));
  for (int i = 0; i < 100000; ++i) {
    const auto ab = Wild(rng, 2);
    const float a = ab[0], b = ab[1];
    const Bounded p = In<Bounded>(a) * In<Bounded>(b), s = In<Bounded>(a) + In<Bounded>(b);
    const Bounded q = In<Bounded>(a) / In<Bounded>(b), r = Sqrt(In<Bounded>(std::fabs(a)));
    ASSERT_TRUE(p.e == 0.0 && s.e == 0.0 && q.e == 0.0 && r.e == 0.0) << a << ", " << b;
    ASSERT_EQ(p.v, static_cast<double>(a * b)) << a << " * " << b;
    ASSERT_EQ(s.v, static_cast<double>(a + b)) << a << " + " << b;
    ASSERT_EQ(q.v, static_cast<double>(a / b)) << a << " / " << b;
    ASSERT_EQ(r.v, static_cast<double>(std::sqrt(std::fabs(a))));
    ASSERT_FALSE(p.given);  // a result no longer "given"
  }
}

TEST(Bounded, ASecondOpIsExactOnlyAfterAStore) {
  const float a = 1.1f, b = 3.3f, c = 0.7f;
  const Bounded p = In<Bounded>(a) * In<Bounded>(b);
  EXPECT_TRUE(p.e == 0.0 && !p.given);
  EXPECT_GT((p * In<Bounded>(c)).e, 0.0);
  EXPECT_GT((p + In<Bounded>(c)).e, 0.0);
  // Stored (and re-read) values are given again: one more op is exact.
  const Bounded stored32 = Store(Fmt::kF32, p) * In<Bounded>(c);
  EXPECT_TRUE(stored32.e == 0.0 && stored32.v == static_cast<double>((a * b) * c));
  const Bounded stored16 = Store(Fmt::kBF16, p) + In<Bounded>(c);
  const float bf = StoreAndLoad(Fmt::kBF16, a * b);
  EXPECT_TRUE(stored16.e == 0.0 && stored16.v == static_cast<double>(bf + c));
}

TEST(Bounded, LiteralsCarryTheirF32RoundingError) {
  const Bounded l = Lit<Bounded>(0.1);
  EXPECT_EQ(l.v, 0.1);
  EXPECT_EQ(l.e, std::fabs(0.1 - static_cast<double>(0.1f)));
  EXPECT_TRUE(l.e > 0.0 && !l.given);
  EXPECT_GT((l * In<Bounded>(3.0)).e, 0.0);  // not a single op on given values
  const Bounded h = Lit<Bounded>(0.5);
  EXPECT_TRUE(h.e == 0.0 && h.given);
  EXPECT_EQ((h * In<Bounded>(3.0)).e, 0.0);
}

TEST(Bounded, OverflowToAnExactInfinityFollowsF32) {
  const Bounded big = Exp(In<Bounded>(100.0));
  EXPECT_TRUE(std::isinf(big.v) && big.v > 0 && big.e == 0.0);
  EXPECT_TRUE(std::isinf(Exp(In<Bounded>(88.73)).v));
  const Bounded sig = Sigmoid<Bounded>(-100.0f);
  const float f32 = 1.0f / (1.0f + std::exp(100.0f));
  EXPECT_TRUE(f32 == 0.0f && sig.v == 0.0 && sig.e == 0.0);
  EXPECT_TRUE(Sound(f32, sig));
  EXPECT_TRUE(Sound(Silu<float>(-100.0f), Silu<Bounded>(-100.0f)));
  EXPECT_EQ(Silu<Bounded>(-100.0f).e, 0.0);
  // Arithmetic on the exact infinity: sign-certain finite factors keep it exact.
  EXPECT_EQ((big * In<Bounded>(2.0)).e, 0.0);
  EXPECT_TRUE(std::isinf((big * In<Bounded>(0.0)).e));          // inf * 0 = NaN in f32
  EXPECT_TRUE(std::isinf((big * Bounded{0.1, 1.0, false}).e));  // sign unknown
  EXPECT_EQ((big + In<Bounded>(-1e30)).e, 0.0);
  // The largest f32 argument whose expf is finite, and the next float up.
  const float below = 88.72283172607421875f, above = std::nextafter(below, INFINITY);
  ASSERT_TRUE(std::isfinite(std::exp(below)) && std::isinf(std::exp(above)));
  EXPECT_TRUE(Sound(std::exp(below), Exp(In<Bounded>(below))));
  EXPECT_TRUE(std::isfinite(Exp(In<Bounded>(below)).e));
  EXPECT_TRUE(Sound(std::exp(above), Exp(In<Bounded>(above))));
  // An argument whose interval straddles the threshold: anything may happen.
  EXPECT_TRUE(std::isinf(Exp(Bounded{88.72, 0.01, false}).e));
}

// An infinite bound times an exact zero must stay an infinite bound, not NaN
// (a NaN bound rejects every kernel value, even the exact one); the same for
// sqrt of an unbounded infinity. (Both were NaN before the fix in scalar.h.)
TEST(Bounded, UnboundedOperandsGiveAnInfiniteBoundNotNaN) {
  const Bounded maybe_inf = Exp(Bounded{88.72, 0.01, false});  // e = inf: may overflow
  EXPECT_TRUE(std::isinf((maybe_inf * In<Bounded>(0.0)).e));
  EXPECT_TRUE(std::isinf((In<Bounded>(0.0) * maybe_inf).e));
  const Bounded huge = Bounded{1e300, 1.0, false} * Bounded{1e300, 1.0, false};  // v = inf, e = inf
  ASSERT_TRUE(std::isinf(huge.v));
  EXPECT_TRUE(std::isinf(Sqrt(huge).e));
  EXPECT_TRUE(std::isinf(Sqrt(huge + Lit<Bounded>(1e-3)).e));
  EXPECT_TRUE(std::isinf(Store(Fmt::kBF16, huge).e));                         // was inf - inf
  EXPECT_TRUE(std::isinf((huge / Store(Fmt::kBF16, In<Bounded>(3.0))).e));    // was inf * 0
  // exp of a very negative argument with a large error: e^v underflows to 0
  // in double while e^e overflows; the bound is e^(v+e) - e^v, not 0 * inf.
  const Bounded far = Exp(Bounded{-2e10, 2000.0, false});
  EXPECT_FALSE(std::isnan(far.e));
  EXPECT_TRUE(Sound(0.0f, far));
  EXPECT_TRUE(std::isinf(Exp(Bounded{-INFINITY, INFINITY, false}).e));       // was exp(NaN)
}

// A finite definition value beyond FLT_MAX: the f32 kernel overflows to inf,
// so the rounding allowance of that step must be infinite.
TEST(Bounded, AnIntermediateBeyondFltMaxHasAnInfiniteBound) {
  const float a = 3e19f, b = 2e19f;
  const Bounded p = (In<Bounded>(a) * In<Bounded>(1.0)) * In<Bounded>(b);  // not a single op: rounded
  ASSERT_TRUE(std::isinf((a * 1.0f) * b));
  EXPECT_TRUE(std::isfinite(p.v) && std::isinf(p.e));
  EXPECT_TRUE(Sound((a * 1.0f) * b, p));
  // Just below the threshold the allowance stays finite.
  const Bounded q = (In<Bounded>(1e19f) * In<Bounded>(1.0)) * In<Bounded>(3e19f);
  EXPECT_TRUE(std::isfinite(q.e));
  EXPECT_TRUE(Sound((1e19f * 1.0f) * 3e19f, q));
}

// sqrt of a computed value whose interval reaches below zero: the f32 value
// may be negative (sqrt -> NaN), so the bound must not claim a finite error.
TEST(Bounded, SqrtOfAnIntervalReachingBelowZeroIsUnbounded) {
  // Sixteen additions of 2^-24 are lost against 1 in f32; the exact sum is
  // positive, the f32 sum is -2^-23.
  std::vector<float> x = {1.0f};
  for (int i = 0; i < 16; ++i) x.push_back(0x1p-24f);
  x.push_back(-(1.0f + 0x1p-23f));
  const float fs = SeqSum<float>(x);
  const Bounded bs = SeqSum<Bounded>(x);
  ASSERT_LT(fs, 0.0f);
  ASSERT_GT(bs.v, 0.0);
  ASSERT_TRUE(Sound(fs, bs));
  const Bounded r = Sqrt(bs);
  // The argument interval reaches below 0: the kernel may take sqrt of a
  // negative value, so the bound must admit anything (including NaN).
  EXPECT_TRUE(std::isinf(r.e)) << "v=" << r.v << " e=" << r.e;
}

// The bound is not absurdly loose. Sum of n = 4096 N(0,1) squares: the per-step
// worst case u*|s_k| adds up to ~u*n^2/2; the observed error is a random walk,
// ~12*u*n on average, so any a-priori bound of this kind reads ~sqrt(n)*2.6
// (~170x) the mean error. Checked: >= the error in every trial, <= 4*sqrt(n) =
// 256x on average, never looser than DESIGN section 7's gamma_n * sum x_i^2.
TEST(Bounded, SumOfSquaresBoundIsNotAbsurdlyLoose) {
  std::mt19937_64 rng(TestSeed(0x1005e));
  const int n = 4096;
  const double gamma_n = n * kU32 / (1.0 - n * kU32);
  double sum_e = 0, sum_err = 0, min_ratio = INFINITY;
  for (int t = 0; t < 200; ++t) {
    const auto x = Normal(rng, n, 1.0);
    float f = 0.0f;
    double sumsq = 0.0;
    for (float v : x) {
      f += v * v;
      sumsq += static_cast<double>(v) * v;
    }
    const Bounded b = SumSq<Bounded>(x);
    ASSERT_LE(b.e, gamma_n * sumsq) << "trial " << t;
    const double err = std::fabs(f - b.v);
    ASSERT_LE(err, b.e) << "trial " << t;
    sum_e += b.e;
    sum_err += err;
    min_ratio = std::min(min_ratio, b.e / std::max(err, 1e-300));
  }
  const double ratio = sum_e / sum_err;
  std::printf("[ ratio    ] mean bound / mean observed error = %.1f (smallest per-trial ratio %.1f)\n", ratio,
              min_ratio);
  EXPECT_GE(ratio, 1.0);
  EXPECT_LE(ratio, 4.0 * std::sqrt(static_cast<double>(n)));
}

}  // namespace
}  // namespace vt::oracle
