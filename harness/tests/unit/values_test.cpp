// harness/catalog/values + the non-finite comparison rules: the "values" knob
// changes only what it declares, sparsely and reproducibly; edges land inside
// their bands; raw NaN patterns reach every float carrier byte for byte; a
// non-finite bound is judged by the f32 definition; the byte check ignores
// only the sign/payload of a NaN (never an fp8 code).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "harness/catalog/claims.h"
#include "harness/catalog/values.h"
#include "harness/core/compare.h"
#include "oracles/bits.h"

namespace vt::conform {
namespace {

Case TwoTensors(const std::string& values, uint64_t seed) {
  Case c;
  c.params = Params("t");
  c.params.seed = seed;
  c.params.Set("values", values);
  c.Input("a", vt::DType::kF32, {8, 64}, Fill::Uniform(0.25, 0.5));
  c.Input("b", vt::DType::kF32, {8, 64}, Fill::Uniform(0.25, 0.5));
  Materialize(c);
  return c;
}

int Changed(const Case& before, const Case& after, const std::string& name) {
  const auto x = before.Get(name).Values(), y = after.Get(name).Values();
  int n = 0;
  for (std::size_t k = 0; k < x.size(); ++k) n += !(x[k] == y[k]) ? 1 : 0;
  return n;
}

TEST(Values, SpecialsAreSparseDeclaredAndReproducible) {
  ValueDecl d;
  d.specials = {{"a"}, {"b", true}};
  const Case base = TwoTensors("special", 7);
  Case s1 = base, s2 = base;
  ApplyValues(d, s1);
  ApplyValues(d, s2);
  EXPECT_EQ(s1.Get("a").storage, s2.Get("a").storage);  // seed-derived
  const int in_a = Changed(base, s1, "a");
  EXPECT_GT(in_a, 0);
  EXPECT_LE(in_a, 512 / 16);  // the cap
  // Row carrier: one element in rows 3 and 7 only (vocabulary +0 may equal
  // nothing drawn from [0.25, 0.5), so each row changes).
  EXPECT_EQ(Changed(base, s1, "b"), 2);
  const auto b = s1.Get("b").Values(), b0 = base.Get("b").Values();
  for (int r = 0; r < 8; ++r) {
    int row_changed = 0;
    for (int j = 0; j < 64; ++j) row_changed += !(b[r * 64 + j] == b0[r * 64 + j]) ? 1 : 0;
    EXPECT_EQ(row_changed, r % 4 == 3 ? 1 : 0) << "row " << r;
  }
  Case normal = TwoTensors("normal", 7);
  ApplyValues(d, normal);
  EXPECT_EQ(normal.Get("a").storage, base.Get("a").storage);
}

TEST(Values, EdgesLandInTheirBands) {
  ValueDecl d;
  d.edges = [](const Params&) { return Symmetric("a", 16.0, 17.5); };
  const Case base = TwoTensors("edges", 3);
  Case c = base;
  ApplyValues(d, c);
  int in_band = 0;
  for (double v : c.Get("a").Values()) {
    if (std::fabs(v) >= 16.0 && std::fabs(v) <= 17.5) ++in_band;
    else EXPECT_TRUE(v >= 0.25 && v < 0.5) << v;
  }
  EXPECT_GT(in_band, 512 / 8);  // about a quarter
  EXPECT_EQ(Changed(base, c, "b"), 0);
}

TEST(Values, VocabularyHoldsEverySpecialClass) {
  const auto& v = SpecialVocabulary();
  int nan_pos = 0, nan_neg = 0, inf = 0, neg_zero = 0, f16_sub = 0;
  for (double x : v) {
    if (std::isnan(x)) (std::signbit(x) ? nan_neg : nan_pos)++;
    if (std::isinf(x)) ++inf;
    if (x == 0.0 && std::signbit(x)) ++neg_zero;
    if (std::fabs(x) == 0x1p-24) ++f16_sub;
  }
  EXPECT_EQ(nan_pos, 1);
  EXPECT_EQ(nan_neg, 1);
  EXPECT_EQ(inf, 2);
  EXPECT_EQ(neg_zero, 1);
  EXPECT_EQ(f16_sub, 2);
}

// values=special puts raw NaN patterns into f32 / f16 / bf16 carriers (kept
// byte for byte through rematerialisation), never into fp8 scale bytes.
TEST(Values, SpecialsDrawRawNaNPatternsPerDType) {
  ValueDecl d;
  d.specials = {{"f32"}, {"f16"}, {"bf16"}, {"fp8"}};
  std::set<uint64_t> seen[3];
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Case c;
    c.params = Params("t");
    c.params.seed = seed;
    c.params.Set("values", "special");
    c.Input("f32", vt::DType::kF32, {16, 64}, Fill::Uniform(0.25, 0.5));
    c.Input("f16", vt::DType::kF16, {16, 64}, Fill::Uniform(0.25, 0.5));
    c.Input("bf16", vt::DType::kBF16, {16, 64}, Fill::Uniform(0.25, 0.5));
    TensorData& fp8 = c.Input("fp8", vt::DType::kU8, {16, 64}, Fill::Uniform(0.25, 0.5));
    fp8.fmt = oracle::Fmt::kFp8E4M3;
    Materialize(c);
    ApplyValues(d, c);
    EXPECT_TRUE(c.Get("fp8").bit_overrides.empty());
    const vt::DType dts[3] = {vt::DType::kF32, vt::DType::kF16, vt::DType::kBF16};
    for (int i = 0; i < 3; ++i) {
      const TensorData& t = c.Get(std::string(vt::Name(dts[i])));
      const std::size_t es = vt::SizeOf(t.dtype);
      TensorData again = t;
      MaterializeTensor(again, seed);
      EXPECT_EQ(again.storage, t.storage);  // part of the fill
      for (const auto& [k, bits] : t.bit_overrides) {
        uint64_t stored = 0;
        std::memcpy(&stored, t.storage.data() + static_cast<std::size_t>(k) * es, es);
        EXPECT_EQ(stored, bits);
        seen[i].insert(bits);
      }
    }
  }
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(seen[i].size(), RawNaNs().size()) << "dtype " << i;  // every kind drawn
    for (const RawNaN& r : RawNaNs()) {
      const uint64_t want = RawNaNBits(r, i == 0 ? vt::DType::kF32 : i == 1 ? vt::DType::kF16 : vt::DType::kBF16);
      EXPECT_EQ(seen[i].count(want), 1u) << r.what;
    }
  }
  // Each pattern is a NaN of its dtype.
  for (const RawNaN& r : RawNaNs()) {
    EXPECT_TRUE(std::isnan(oracle::DecodeBits(oracle::Fmt::kF32, r.f32))) << r.what;
    EXPECT_TRUE(std::isnan(oracle::DecodeBits(oracle::Fmt::kF16, r.f16))) << r.what;
    EXPECT_TRUE(std::isnan(oracle::DecodeBits(oracle::Fmt::kBF16, r.bf16))) << r.what;
  }
}

TensorData F32Out(const std::vector<double>& v) {
  return TensorFromValues("out", vt::DType::kF32, {static_cast<int64_t>(v.size())}, Role::kOutput, v);
}

TEST(Values, NonFiniteBoundIsJudgedByTheF32Definition) {
  Expected want;
  want.v = {-INFINITY, 1.0};
  want.e = {INFINITY, INFINITY};
  want.f32 = {NAN, 1.0};
  const Tolerance tol = Bound("test");
  EXPECT_EQ(CheckOutput(F32Out({NAN, 1.0}), want, tol, 0.5).m.bad, 0);
  // Not "anything goes": a finite value where the definition gives NaN, and
  // one ulp off where it gives 1.0, both fail.
  EXPECT_EQ(CheckOutput(F32Out({-INFINITY, 1.0}), want, tol, 0.5).m.bad, 1);
  EXPECT_EQ(CheckOutput(F32Out({NAN, 1.0 + 0x1p-23}), want, tol, 0.5).m.bad, 1);
}

TEST(Values, ByteCheckIgnoresOnlyTheNaNSign) {
  const TensorData a = F32Out({NAN, 1.0});
  const TensorData b = F32Out({-NAN, 1.0});
  EXPECT_NE(DiffBytes(a, b), "");
  EXPECT_EQ(DiffBytes(a, b, /*any_nan=*/true), "");
  EXPECT_NE(DiffBytes(a, F32Out({NAN, -1.0}), true), "");
  TensorData p = a, q = a;
  p.dtype = q.dtype = vt::DType::kU8;
  p.fmt = q.fmt = oracle::Fmt::kFp8E4M3;
  p.storage = {0x7F, 0x38};
  q.storage = {0xFF, 0x38};
  p.SetContiguous();
  q.SetContiguous();
  EXPECT_NE(DiffBytes(p, q, true), "");  // fp8: 0x7F is the only NaN the spec writes
}

}  // namespace
}  // namespace vt::conform
