// The baseline rule of the KDA ops (docs/ops/kda.md) on real cases: oracle<float>
// itself passes it, and two planted changes evaluated in double - a dropped
// decay on one token (g = 0 there: exp(0) = 1) and beta applied twice (beta^2) -
// are refused, on out and on the final state. This is what justifies c = 2:
// the rule is loose enough for an f32 evaluation and tight enough for a bug.
#include <gtest/gtest.h>

#include "harness/catalog/catalog.h"
#include "harness/catalog/claims.h"
#include "harness/catalog/glue/glue_entry.h"
#include "harness/modes/mode.h"
#include "oracles/gdn/kda_gated_delta_rule.h"

namespace vt::conform {
namespace {

TensorData F32Tensor(const std::string& name, const std::vector<int64_t>& shape, const std::vector<double>& v) {
  return TensorFromValues(name, vt::DType::kF32, shape, Role::kOutput, v);
}

template <class S>
std::vector<double> AsDouble(const std::vector<S>& v) {
  return std::vector<double>(v.begin(), v.end());
}

TEST(KdaBaselineRule, PassesTheFloatOracleAndRefusesPlantedChanges) {
  const OpSpec& op = *FindOp("kda_gated_delta_rule");
  RunConfig cfg;
  int checked = 0;
  for (const Params& p : TierCases(op, cfg, 48)) {
    if (p.Int("T") < 2) continue;
    const Case c = MakeCase(op, p);
    const TensorData& q = c.Get("q");
    const TensorData& v = c.Get("v");
    const oracle::KdaDims d{q.shape[1], v.shape[1], q.shape[2], v.shape[2]};
    const std::vector<int64_t> loc = glue::Indices(c.Get("query_start_loc"));
    const auto qs = q.Values(), ks = c.Get("k").Values(), vs = v.Values(), gs = c.Get("g").Values();
    const auto betas = c.Get("beta").Values(), state = c.Get("state").Values();
    const double scale = p.F32("scale");
    auto run_double = [&](const std::vector<double>& g, const std::vector<double>& beta) {
      return oracle::KdaGatedDeltaRule<double>(d, loc, qs, ks, vs, g, beta, state, scale);
    };
    const auto truth = run_double(gs, betas);
    std::vector<float> gf(gs.begin(), gs.end());
    const auto flt = oracle::KdaGatedDeltaRule<float>(d, loc, qs, ks, vs, gf, betas, state, scale);
    const auto specs = op.outputs(c);
    const std::vector<int64_t> out_shape = c.Get("out").shape, state_shape = c.Get("state").shape;
    const Expected want_out = BaselineExpected(truth.out, AsDouble(flt.out), oracle::Fmt::kF32);
    const Expected want_state = BaselineExpected(truth.state, AsDouble(flt.state), oracle::Fmt::kF32);
    auto bad = [&](const oracle::KdaResult<double>& r) {
      const OutputCheck o = CheckOutput(F32Tensor("out", out_shape, r.out), want_out, specs[0].tol, 1.0);
      const OutputCheck s = CheckOutput(F32Tensor("state", state_shape, r.state), want_state, specs[1].tol, 1.0);
      return o.m.bad + s.m.bad;
    };
    // oracle<float> passes.
    const OutputCheck ok = CheckOutput(F32Tensor("out", out_shape, AsDouble(flt.out)), want_out, specs[0].tol, 1.0);
    EXPECT_EQ(ok.m.bad, 0) << p.Identity() << "\n" << FormatCheck(ok);
    // A dropped decay on the second token (every head and channel).
    std::vector<double> g_dropped = gs;
    for (int64_t i = 0; i < d.hv * d.dk; ++i) g_dropped[static_cast<std::size_t>(d.hv * d.dk + i)] = 0.0;
    EXPECT_GT(bad(run_double(g_dropped, betas)), 0) << "dropped decay passed: " << p.Identity();
    // beta applied twice.
    std::vector<double> beta_twice = betas;
    for (double& b : beta_twice) b *= b;
    EXPECT_GT(bad(run_double(gs, beta_twice)), 0) << "beta applied twice passed: " << p.Identity();
    ++checked;
  }
  EXPECT_GT(checked, 5);
}

}  // namespace
}  // namespace vt::conform
