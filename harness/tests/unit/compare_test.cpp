// harness/core/compare: CheckOutput / FormatCheck on hand-built outputs.
// Expected intervals are computed by hand or with the C++ float conversion
// and the kernels' codecs, not with RoundReal.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "harness/core/compare.h"
#include "oracles/bits.h"

namespace vt::conform {
namespace {

using oracle::Fmt;

// A contiguous output holding `vals` (f32 / bf16 via the codecs).
TensorData Out(vt::DType dt, std::vector<int64_t> shape, const std::vector<double>& vals) {
  TensorData t;
  t.name = "out";
  t.dtype = dt;
  t.shape = std::move(shape);
  t.role = Role::kOutput;
  t.fmt = dt == vt::DType::kBF16 ? Fmt::kBF16 : Fmt::kF32;
  t.SetContiguous();
  EXPECT_EQ(static_cast<std::size_t>(t.Numel()), vals.size());
  t.storage.resize(vals.size() * vt::SizeOf(dt));
  for (std::size_t k = 0; k < vals.size(); ++k) {
    if (dt == vt::DType::kF32) {
      const float f = static_cast<float>(vals[k]);
      std::memcpy(&t.storage[4 * k], &f, 4);
    } else {
      const auto b = static_cast<uint16_t>(oracle::EncodeBits(Fmt::kBF16, static_cast<float>(vals[k])));
      std::memcpy(&t.storage[2 * k], &b, 2);
    }
  }
  return t;
}
TensorData F32(const std::vector<double>& v) { return Out(vt::DType::kF32, {static_cast<int64_t>(v.size())}, v); }
TensorData BF16(const std::vector<double>& v) { return Out(vt::DType::kBF16, {static_cast<int64_t>(v.size())}, v); }

Expected Want(std::vector<double> v, std::vector<double> e = {}) {
  Expected x;
  x.v = std::move(v);
  x.e = std::move(e);
  return x;
}
std::vector<double> Fill(std::size_t n, double x) { return std::vector<double>(n, x); }

std::vector<int64_t> BadIndices(const OutputCheck& c) {
  std::vector<int64_t> v;
  for (const ElementError& b : c.first_bad) v.push_back(b.index);
  return v;
}

const double kF32Tenth = static_cast<double>(0.1f);

TEST(Compare, ExactPassesEqualValues) {
  const std::vector<double> v = {1.0, -2.5, 3.25, static_cast<double>(1e-3f), 7.0, kF32Tenth};
  const OutputCheck c = CheckOutput(Out(vt::DType::kF32, {2, 3}, v), Want(v), Exact("copy"), 0.5);
  EXPECT_TRUE(c.passed()) << FormatCheck(c);
  EXPECT_EQ(c.m.n, 6);
  EXPECT_EQ(c.m.bad, 0);
  EXPECT_TRUE(c.m.bytes_equal);
  EXPECT_EQ(c.m.max_abs, 0.0);
  EXPECT_EQ(c.m.headroom, 0.0);
  EXPECT_TRUE(c.first_bad.empty());
  // Exact against an unrepresentable value: the rounded value is the answer.
  EXPECT_TRUE(CheckOutput(BF16({1.0, 2.0}), Want({1.003, 2.0}), Exact("cast"), 0.5).passed());
}

TEST(Compare, ExactFailsOneUlpAndReportsIndexExpectedGot) {
  const std::vector<double> v = {1.0, -2.5, 3.25, 4.0, 7.0, kF32Tenth};
  std::vector<double> g = v;
  const float bumped = std::nextafter(0.1f, 1.0f);
  g[5] = bumped;
  const OutputCheck c = CheckOutput(Out(vt::DType::kF32, {2, 3}, g), Want(v), Exact("copy"), 0.5);
  EXPECT_FALSE(c.passed());
  EXPECT_EQ(c.m.bad, 1);
  EXPECT_FALSE(c.m.bytes_equal);
  ASSERT_EQ(c.first_bad.size(), 1u);
  EXPECT_EQ(c.first_bad[0].index, 5);
  EXPECT_EQ(c.first_bad[0].coord, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(c.first_bad[0].expected, kF32Tenth);
  EXPECT_EQ(c.first_bad[0].got, static_cast<double>(bumped));
  EXPECT_EQ(c.m.max_ulp, 1.0);  // one f32 step at 0.1
  EXPECT_EQ(c.m.worst, 5);
  EXPECT_GT(c.m.headroom, 1.0);
  const std::string msg = FormatCheck(c);
  EXPECT_NE(msg.find("out[1,2] (flat 5)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected 0.100000001"), std::string::npos) << msg;
  EXPECT_NE(msg.find("got 0.100000009"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1/6 bad under exact [copy]"), std::string::npos) << msg;
}

TEST(Compare, FirstBadIsCappedButEveryBadElementIsCounted) {
  const OutputCheck c = CheckOutput(F32(Fill(20, 2.0)), Want(Fill(20, 1.0)), Exact("x"), 0.5);
  EXPECT_EQ(c.m.bad, 20);
  EXPECT_EQ(c.first_bad.size(), static_cast<std::size_t>(kMaxReported));
  EXPECT_EQ(BadIndices(c).front(), 0);
}

TEST(Compare, BoundF32AcceptsExactlyTheRoundedInterval) {
  const double e = 1e-6;
  const float lo = static_cast<float>(1.0 - e), hi = static_cast<float>(1.0 + e);
  const std::vector<double> g = {lo, hi, std::nextafter(lo, -1.0f), std::nextafter(hi, 2.0f), 1.0};
  const OutputCheck c = CheckOutput(F32(g), Want(Fill(5, 1.0), Fill(5, e)), Bound("b"), 0.5);
  EXPECT_EQ(BadIndices(c), (std::vector<int64_t>{2, 3})) << FormatCheck(c);
  ASSERT_EQ(c.first_bad.size(), 2u);
  EXPECT_EQ(c.first_bad[0].lo, static_cast<double>(lo));
  EXPECT_EQ(c.first_bad[0].hi, static_cast<double>(hi));
}

TEST(Compare, BoundBF16AcceptsExactlyTheRoundedInterval) {
  // v = 1, e = 0.01: bf16(0.99) = 1 - 3 * 2^-8 = 0.98828125, bf16(1.01) = 1 + 2^-7.
  const std::vector<double> g = {0.98828125, 1.0078125, 0.984375, 1.015625, 1.0};
  const OutputCheck c = CheckOutput(BF16(g), Want(Fill(5, 1.0), Fill(5, 0.01)), Bound("b"), 0.5);
  EXPECT_EQ(BadIndices(c), (std::vector<int64_t>{2, 3})) << FormatCheck(c);
  ASSERT_FALSE(c.first_bad.empty());
  EXPECT_EQ(c.first_bad[0].lo, 0.98828125);
  EXPECT_EQ(c.first_bad[0].hi, 1.0078125);
  EXPECT_EQ(c.fmt, Fmt::kBF16);
}

TEST(Compare, UlpRule) {
  const std::vector<double> g = {1 + 0x1p-22, 1 + 3 * 0x1p-23, 1 - 0x1p-22, 1 - 0x1p-22 - 0x1p-24};
  const OutputCheck c = CheckOutput(F32(g), Want(Fill(4, 1.0)), Ulp(2, "two ulps"), 0.5);
  EXPECT_EQ(BadIndices(c), (std::vector<int64_t>{1, 3})) << FormatCheck(c);
  EXPECT_NE(FormatCheck(c).find("ulp(2)"), std::string::npos);
  const std::vector<double> gb = {1.0078125, 1.015625, 0.9921875, 0.98828125};
  const OutputCheck cb = CheckOutput(BF16(gb), Want(Fill(4, 1.0)), Ulp(1, "one ulp"), 0.5);
  EXPECT_EQ(BadIndices(cb), (std::vector<int64_t>{1, 3})) << FormatCheck(cb);
  // Right at the edge the headroom reads exactly 1.
  const OutputCheck edge = CheckOutput(F32({1 + 0x1p-22}), Want({1.0}), Ulp(2, "e"), 0.5);
  EXPECT_TRUE(edge.passed());
  EXPECT_EQ(edge.m.headroom, 1.0);
}

TEST(Compare, GoldenRule) {
  // atol 1e-3 + rtol 1e-2 * |v|: 0.101 at v = 10, 0.001 at v = 0.
  const std::vector<double> g = {10.1, 10.102, 0.0009, 0.0011, 5.0};
  const OutputCheck c = CheckOutput(F32(g), Want({10.0, 10.0, 0.0, 0.0, 5.0}), Golden(1e-3, 1e-2, "manifest"), 0.5);
  EXPECT_EQ(BadIndices(c), (std::vector<int64_t>{1, 3})) << FormatCheck(c);
  EXPECT_NE(FormatCheck(c).find("golden(atol=0.001,rtol=0.01)"), std::string::npos);
}

TEST(Compare, NaNHandling) {
  EXPECT_TRUE(CheckOutput(F32({NAN, 1.0}), Want({NAN, 1.0}), Exact("x"), 0.5).passed());
  EXPECT_TRUE(CheckOutput(F32({NAN, 1.0}), Want({NAN, 1.0}, {0.5, 0.5}), Bound("x"), 0.5).passed());
  EXPECT_FALSE(CheckOutput(F32({1.0, 1.0}), Want({NAN, 1.0}), Exact("x"), 0.5).passed());
  // A NaN output against a finite expectation fails under every rule, however wide.
  const std::vector<Tolerance> rules = {Exact("x"), Bound("x"), Ulp(1e6, "x"), Golden(1e30, 1.0, "x"),
                                        Baseline(1.0, 1e30, "x")};
  for (const Tolerance& t : rules) {
    const OutputCheck c = CheckOutput(F32({NAN, 2.0}), Want({1.0, 2.0}, {1e30, 0.0}), t, 0.5);
    EXPECT_EQ(c.m.bad, 1) << t.Describe();
    EXPECT_GT(c.m.headroom, 1.0) << t.Describe();
  }
}

TEST(Compare, InfinityHandling) {
  EXPECT_EQ(CheckOutput(F32({INFINITY, -INFINITY, 1.0}), Want({INFINITY, -INFINITY, 1.0}), Exact("x"), 0.5).m.bad, 0);
  // Beyond FLT_MAX rounds to inf in f32: an exact output of inf is right.
  EXPECT_EQ(CheckOutput(F32({INFINITY, 1.0}), Want({1e39, 1.0}), Exact("x"), 0.5).m.bad, 0);
  EXPECT_EQ(CheckOutput(F32({FLT_MAX, 1.0}), Want({INFINITY, 1.0}), Exact("x"), 0.5).m.bad, 1);
  EXPECT_EQ(CheckOutput(F32({FLT_MAX, 1.0}), Want({INFINITY, 1.0}, {1e30, 0}), Bound("x"), 0.5).m.bad, 1);
  EXPECT_EQ(CheckOutput(F32({INFINITY, 1.0}), Want({1.0, 1.0}), Golden(1e30, 0, "x"), 0.5).m.bad, 1);
  EXPECT_EQ(CheckOutput(F32({-INFINITY, 1.0}), Want({INFINITY, 1.0}), Exact("x"), 0.5).m.bad, 1);
}

// tolerance.h: "bound: the output must lie in [R(v - e), R(v + e)]". When
// R(v + e) overflows to +inf, an output of +inf lies in that interval.
TEST(Compare, BoundIntervalReachingInfinityAdmitsInfinity) {
  const OutputCheck c = CheckOutput(F32({INFINITY, 1.0}), Want({3.4e38, 1.0}, {1e37, 0.0}), Bound("x"), 0.5);
  EXPECT_EQ(c.m.bad, 0) << FormatCheck(c);
}

// An exact rule admits one value; for an expected infinity that is not a
// tolerance "wider than the signal".
TEST(Compare, ExactInfinityIsNotAVacuousTolerance) {
  std::vector<double> v = Fill(10, 1.0);
  v[0] = v[1] = INFINITY;
  const OutputCheck c = CheckOutput(F32(v), Want(v), Exact("cast"), 0.5);
  EXPECT_EQ(c.m.bad, 0);
  EXPECT_EQ(c.m.vacuous, 0) << c.mistrust;
  EXPECT_TRUE(c.passed()) << c.mistrust;
}

TEST(Compare, MistrustedReferences) {
  const OutputCheck zero = CheckOutput(F32(Fill(8, 0.0)), Want(Fill(8, 0.0)), Exact("x"), 0.5);
  EXPECT_EQ(zero.m.bad, 0);
  EXPECT_FALSE(zero.passed());
  EXPECT_NE(zero.mistrust.find("all zero"), std::string::npos) << zero.mistrust;
  EXPECT_NE(FormatCheck(zero).find("MISTRUSTED"), std::string::npos);

  const OutputCheck nan = CheckOutput(F32(Fill(8, NAN)), Want(Fill(8, NAN)), Exact("x"), 0.5);
  EXPECT_EQ(nan.m.bad, 0);
  EXPECT_NE(nan.mistrust.find("all NaN"), std::string::npos) << nan.mistrust;

  // ...but not where an input is non-finite: NaN is then what propagation
  // makes, and the comparison checks that every element is NaN.
  EXPECT_TRUE(CheckOutput(F32(Fill(8, NAN)), Want(Fill(8, NAN)), Exact("x"), 0.5, true).passed());
  const OutputCheck nan_not_nan = CheckOutput(F32(Fill(8, 1.0)), Want(Fill(8, NAN)), Exact("x"), 0.5, true);
  EXPECT_EQ(nan_not_nan.m.bad, 8);  // still held to the NaNs
  EXPECT_TRUE(CheckOutput(F32(Fill(8, 0.0)), Want(Fill(8, 0.0)), Exact("x"), 0.5, true).mistrust.find("all zero") !=
              std::string::npos);

  // More zeros than the fraction are MISTRUSTED only when the nonzero elements
  // left are too few to judge (< 10% and < 1000): 6 of 10 zeros (1e-50 rounds
  // to 0 in f32 and counts as one) leave 4 to judge; 95 of 100 leave 5.
  std::vector<double> six = {0, 0, 0, 0, 0, 1e-50, 1, 2, 3, 4};
  EXPECT_TRUE(CheckOutput(F32(six), Want(six), Exact("x"), 0.5).passed());
  std::vector<double> most(100, 0.0);
  for (int k = 0; k < 5; ++k) most[static_cast<std::size_t>(k)] = k + 1.0;
  const OutputCheck mostly = CheckOutput(F32(most), Want(most), Exact("x"), 0.5);
  EXPECT_NE(mostly.mistrust.find("mostly zero (95 of 100"), std::string::npos) << mostly.mistrust;
  EXPECT_TRUE(CheckOutput(F32(most), Want(most), Exact("x"), 0.96).passed());
  most[5] = 6.0;  // 94 of 100: 6 nonzero, still < 10
  EXPECT_FALSE(CheckOutput(F32(most), Want(most), Exact("x"), 0.5).passed());
  for (int k = 6; k < 10; ++k) most[static_cast<std::size_t>(k)] = k + 1.0;  // 90 of 100: 10 nonzero, judged
  EXPECT_TRUE(CheckOutput(F32(most), Want(most), Exact("x"), 0.5).passed());
  // A wrong value among a mostly-zero reference is still caught.
  std::vector<double> wrong = most;
  wrong[0] = 9.0;
  EXPECT_EQ(CheckOutput(F32(wrong), Want(most), Exact("x"), 0.5).m.bad, 1);

  const OutputCheck count = CheckOutput(F32({1, 2}), Want({1, 2, 3}), Exact("x"), 0.5);
  EXPECT_NE(count.mistrust.find("oracle produced 3 values for 2 elements"), std::string::npos) << count.mistrust;
}

// A bound wider than both |v| and 1% of the RMS is vacuous: the element is not
// judged. A partial verdict passes and counts them; fewer than 10% of the
// nonzero elements judged (and fewer than 1000) -> MISTRUSTED.
TEST(Compare, VacuousToleranceGivesPartialVerdictThenMistrust) {
  auto run = [](int wide) {
    std::vector<double> v = Fill(20, 1.0), e = Fill(20, 1e-3);
    for (int k = 0; k < wide; ++k) e[static_cast<std::size_t>(k)] = 5.0;
    return CheckOutput(F32(v), Want(v, e), Bound("x"), 0.5);
  };
  const OutputCheck three = run(3), eighteen = run(18), nineteen = run(19);
  EXPECT_EQ(three.m.vacuous, 3);
  EXPECT_TRUE(three.passed()) << three.mistrust;
  EXPECT_EQ(three.unjudged(), 3);
  EXPECT_NE(three.UnjudgedLine().find("out: 3 of 20 nonzero elements not judged"), std::string::npos)
      << three.UnjudgedLine();
  EXPECT_TRUE(eighteen.passed()) << eighteen.mistrust;  // 2 of 20 judged: exactly 10%
  EXPECT_EQ(nineteen.m.vacuous, 19);
  EXPECT_NE(nineteen.mistrust.find("wider than the signal for 19 of 20"), std::string::npos) << nineteen.mistrust;
  EXPECT_TRUE(run(0).UnjudgedLine().empty());
  // Vacuous elements are still held to the tolerance: one outside it fails.
  std::vector<double> v = Fill(20, 1.0), e = Fill(20, 1e-3), got = Fill(20, 1.0);
  e[0] = 5.0;
  got[0] = 7.0;
  EXPECT_EQ(CheckOutput(F32(got), Want(v, e), Bound("x"), 0.5).m.bad, 1);
  // Enough judged elements in absolute terms also trust a case: 1000 judged
  // of 20000 (5%).
  std::vector<double> big = Fill(20000, 1.0), big_e = Fill(20000, 5.0);
  for (int k = 0; k < 1000; ++k) big_e[static_cast<std::size_t>(k)] = 1e-3;
  const OutputCheck thousand = CheckOutput(F32(big), Want(big, big_e), Bound("x"), 0.5);
  EXPECT_TRUE(thousand.passed()) << thousand.mistrust;
  EXPECT_EQ(thousand.unjudged(), 19000);
  big_e[999] = 5.0;
  EXPECT_FALSE(CheckOutput(F32(big), Want(big, big_e), Bound("x"), 0.5).passed());
  // Near-zero elements may carry a bound above their own value (cancellation)
  // as long as it is small against the signal: judged.
  std::vector<double> nz = Fill(20, 1.0), nz_e = Fill(20, 1e-3);
  for (int k = 0; k < 5; ++k) nz[static_cast<std::size_t>(k)] = static_cast<double>(1e-6f);
  for (int k = 0; k < 5; ++k) nz_e[static_cast<std::size_t>(k)] = 1e-4;
  const OutputCheck near_zero = CheckOutput(F32(nz), Want(nz, nz_e), Bound("x"), 0.5);
  EXPECT_EQ(near_zero.m.vacuous, 0);
  EXPECT_TRUE(near_zero.passed()) << near_zero.mistrust;
  // The same rule for ulp/golden tolerances: golden(atol=10) on unit values.
  EXPECT_FALSE(CheckOutput(F32(Fill(20, 1.0)), Want(Fill(20, 1.0)), Golden(10, 0, "x"), 0.5).mistrust.empty());
}

TEST(Compare, HeadroomOfRoundedAndFailingOutputs) {
  // bf16 output, bound with e = 0: round(1.003) = 1.0 errs by 0.003 of an
  // allowance of half a bf16 ulp (2^-8): 0.768.
  const OutputCheck ok = CheckOutput(BF16({1.0, 2.0}), Want({1.003, 2.0}, {0.0, 0.0}), Bound("x"), 0.5);
  EXPECT_TRUE(ok.passed());
  EXPECT_GT(ok.m.headroom, 0.0);
  EXPECT_LT(ok.m.headroom, 1.0);
  EXPECT_NEAR(ok.m.headroom, 0.003 / 0x1p-8, 1e-12);
  EXPECT_EQ(ok.m.worst, 0);
  const OutputCheck exact_ok = CheckOutput(BF16({1.0, 2.0}), Want({1.003, 2.0}), Exact("x"), 0.5);
  EXPECT_LT(exact_ok.m.headroom, 1.0);
  // The next bf16 up is wrong, and reads > 1 even though its error is small.
  const OutputCheck bad = CheckOutput(BF16({1.0, 1.0078125}), Want({1.003, 1.003}, {0.0, 0.0}), Bound("x"), 0.5);
  EXPECT_EQ(bad.m.bad, 1);
  EXPECT_GT(bad.m.headroom, 1.0);
  EXPECT_EQ(bad.m.worst, 1);
  EXPECT_EQ(bad.m.worst_got, 1.0078125);
}

TEST(Compare, Fp8PayloadsDecodeThroughTheirFormat) {
  // Hand-encoded e4m3fn codes: 0.1 -> 1.625 * 2^-4 (0x1D), 1000 -> 448 (0x7E,
  // saturated), -0.5 -> 0xB0, 3.0 -> 1.5 * 2^1 (0x44).
  TensorData t;
  t.name = "q";
  t.dtype = vt::DType::kU8;
  t.fmt = Fmt::kFp8E4M3;
  t.shape = {4};
  t.SetContiguous();
  t.storage = {0x1D, 0x7E, 0xB0, 0x44};
  ASSERT_EQ(oracle::DecodeBits(Fmt::kFp8E4M3, 0x1D), 0.1015625);
  const Expected want = Want({0.1, 1000.0, -0.5, 3.0});
  const OutputCheck c = CheckOutput(t, want, Exact("quant"), 0.5);
  EXPECT_TRUE(c.passed()) << FormatCheck(c);
  EXPECT_TRUE(c.m.bytes_equal);
  EXPECT_EQ(c.fmt, Fmt::kFp8E4M3);
  t.storage[0] = 0x1E;  // the next code up, 0.109375
  const OutputCheck bad = CheckOutput(t, want, Exact("quant"), 0.5);
  EXPECT_EQ(BadIndices(bad), (std::vector<int64_t>{0}));
  EXPECT_EQ(bad.first_bad[0].got, 0.109375);
  EXPECT_EQ(bad.first_bad[0].ulp_err, (0.109375 - 0.1) / 0x1p-7);  // fp8 ulp at 0.1 is 2^-7
  EXPECT_FALSE(bad.m.bytes_equal);
  EXPECT_NE(FormatCheck(bad).find("fp8_e4m3"), std::string::npos);
}

TEST(Compare, BytesEqualMeansTheRoundedOracleBytes) {
  // Passing but not the rounded value: bytes differ.
  const OutputCheck in_bound = CheckOutput(F32({1 + 0x1p-23, 2.0}), Want({1.0, 2.0}, {1e-6, 0}), Bound("x"), 0.5);
  EXPECT_TRUE(in_bound.passed());
  EXPECT_FALSE(in_bound.m.bytes_equal);
  // The rounded value of an unrepresentable oracle value: bytes equal.
  const OutputCheck rounded = CheckOutput(BF16({1.0, 2.0}), Want({1.003, 2.0}, {0.01, 0}), Bound("x"), 0.5);
  EXPECT_TRUE(rounded.m.bytes_equal);
  EXPECT_NE(FormatCheck(rounded).find("bytes equal to the rounded oracle"), std::string::npos);
  // -0 vs +0 is the same value but not the same bytes.
  const OutputCheck zero = CheckOutput(F32({-0.0, 1.0}), Want({0.0, 1.0}), Exact("x"), 0.5);
  EXPECT_EQ(zero.m.bad, 0);
  EXPECT_FALSE(zero.m.bytes_equal);
}

TEST(Compare, MetricsOnAHandComputedExample) {
  // errors 0.5, 0, 0, -1 against 1, 2, 3, 4: NMSE = 1.25 / 30. golden rtol
  // 0.5 allows 0.5 at v = 1 (used up: headroom 1) and 2 at v = 4 (half used).
  const OutputCheck c = CheckOutput(F32({1.5, 2.0, 3.0, 3.0}), Want({1.0, 2.0, 3.0, 4.0}), Golden(0.0, 0.5, "x"), 0.5);
  EXPECT_TRUE(c.passed()) << FormatCheck(c);
  EXPECT_DOUBLE_EQ(c.m.nmse, 1.25 / 30.0);
  EXPECT_EQ(c.m.max_abs, 1.0);
  EXPECT_EQ(c.m.max_rel, 0.5);
  EXPECT_EQ(c.m.max_ulp, 0.5 / 0x1p-23);  // 0.5 at v = 1 (f32 ulp 2^-23) beats 1 at v = 4 (2^21 ulps)
  EXPECT_EQ(c.m.worst, 0);
  EXPECT_EQ(c.m.headroom, 1.0);
  EXPECT_NE(FormatCheck(c).find("nmse 0.0417"), std::string::npos) << FormatCheck(c);
}

}  // namespace
}  // namespace vt::conform
