// The baseline rule (|kernel - oracle<double>| <= c * max|oracle<float> -
// oracle<double>| + floor) on a real op: the oracles instantiated at S = double
// and S = float, the kernel within 1x of the float oracle's own error, and a
// kernel output moved by 4x that error fails.
#include <gtest/gtest.h>

#include "harness/catalog/catalog.h"
#include "harness/modes/mode.h"
#include "oracles/norm/rms_norm.h"

namespace vt::conform {
namespace {

TEST(BaselineRule, RmsNormAgainstTheFloatOracle) {
  const OpSpec& op = *FindOp("rms_norm");
  RunConfig cfg;
  int checked = 0;
  for (const Params& p : TierCases(op, cfg, 40)) {
    if (p.Str("residual") != "none" || p.Int("T") == 0) continue;
    const Case c = MakeCase(op, p);
    const TensorData& x = c.Get("x");
    const auto xs = x.Values(), ws = c.Get("weight").Values();
    const auto dbl = oracle::RmsNorm<double>(x.shape[0], x.shape[1], xs, ws, p.Flag("gemma"), p.F32("eps"), nullptr,
                                             oracle::Fmt::kF32);
    const auto flt = oracle::RmsNorm<float>(x.shape[0], x.shape[1], xs, ws, p.Flag("gemma"), p.F32("eps"), nullptr,
                                            oracle::Fmt::kF32);
    const Execution run = Execute(op, c, vt::ExecContext{});
    const TensorData& out = run.after.Get("out");
    const Expected want = BaselineExpected(dbl, std::vector<double>(flt.begin(), flt.end()), out.fmt);
    // why c = 1, floor = half an f32 ulp at the largest |value|: the kernel and
    // oracle<float> evaluate the same expression in f32; their errors differ
    // only in association, so the kernel may not exceed the float oracle's own
    // worst error by more than one final rounding.
    double vmax = 0;
    for (double v : dbl) vmax = std::max(vmax, std::fabs(v));
    const double floor = 0.5 * oracle::UlpOf(out.fmt, vmax);
    const OutputCheck ok = CheckOutput(out, want, Baseline(1.0, floor, "same-precision oracle"), 1.0);
    EXPECT_EQ(ok.m.bad, 0) << p.Identity() << "\n" << FormatCheck(ok);
    // Move the output by 4x the allowance: the rule must notice.
    TensorData moved = out;
    auto vals = moved.Values();
    for (double& v : vals) v += 4.0 * (want.baseline_err + floor) + 4.0 * oracle::UlpOf(out.fmt, v);
    moved.SetValues(vals);
    const OutputCheck bad = CheckOutput(moved, want, Baseline(1.0, floor, "same-precision oracle"), 1.0);
    EXPECT_GT(bad.m.bad, 0) << p.Identity();
    ++checked;
  }
  EXPECT_GT(checked, 5);
}

}  // namespace
}  // namespace vt::conform
