// harness/catalog/values + the non-finite comparison rules: the "values" knob
// changes only what it declares, sparsely and reproducibly; edges land inside
// their bands; a non-finite bound is judged by the f32 definition; the byte
// check ignores only the sign/payload of a NaN (never an fp8 code).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "harness/catalog/claims.h"
#include "harness/catalog/values.h"
#include "harness/core/compare.h"

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
