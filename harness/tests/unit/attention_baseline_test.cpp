// The attention family's baseline rule (|kernel - oracle<double>| <= 2 *
// max|oracle<float> - oracle<double>| before the store, docs/ops/attn.md;
// expressed as a per-element bound e) on long key ranges:
// the kernel passes it, and a planted drift of one f32 ulp per key step in
// the weighted-V accumulation - the kind of slip a reordered or
// fused kernel could make and the f32 evaluation does not - fails it. This
// is what justifies c = 2: it separates a faithful f32 evaluation from one
// that gains an ulp per step.
#include <gtest/gtest.h>

#include <cmath>

#include "harness/catalog/attn/attn_entry.h"
#include "harness/catalog/catalog.h"
#include "harness/modes/mode.h"
#include "oracles/attn/attention.h"

namespace vt::conform {
namespace {

// attention in f32, the spec's order, with acc nudged one ulp up after every
// key step of pass 3.
std::vector<double> DriftedAttention(const oracle::AttnShape& sh, const std::vector<double>& q,
                                     const std::vector<double>& k, const std::vector<double>& v, float scale,
                                     bool causal) {
  std::vector<double> out(static_cast<size_t>(sh.tq * sh.hq * sh.d));
  const int64_t group = sh.hq / sh.hk;
  for (int64_t i = 0; i < sh.tq; ++i) {
    for (int64_t h = 0; h < sh.hq; ++h) {
      const int64_t g = h / group, n = causal ? i + 1 : sh.tq;
      const size_t qo = static_cast<size_t>((i * sh.hq + h) * sh.d);
      std::vector<float> s(static_cast<size_t>(n));
      float m = -INFINITY;
      for (int64_t j = 0; j < n; ++j) {
        float dot = 0.0f;
        for (int64_t e = 0; e < sh.d; ++e) {
          dot += static_cast<float>(q[qo + e]) * static_cast<float>(k[static_cast<size_t>((j * sh.hk + g) * sh.d + e)]);
        }
        s[static_cast<size_t>(j)] = dot * scale;
        m = std::max(m, s[static_cast<size_t>(j)]);
      }
      float denom = 0.0f;
      for (float& x : s) {
        x = std::exp(x - m);
        denom += x;
      }
      const float inv = 1.0f / denom;
      std::vector<float> acc(static_cast<size_t>(sh.d), 0.0f);
      for (int64_t j = 0; j < n; ++j) {
        const float p = s[static_cast<size_t>(j)] * inv;
        for (int64_t e = 0; e < sh.d; ++e) {
          const float vv = static_cast<float>(v[static_cast<size_t>((j * sh.hk + g) * sh.d + e)]);
          acc[static_cast<size_t>(e)] = std::nextafter(acc[static_cast<size_t>(e)] + p * vv, INFINITY);
        }
      }
      for (int64_t e = 0; e < sh.d; ++e) out[qo + static_cast<size_t>(e)] = acc[static_cast<size_t>(e)];
    }
  }
  return out;
}

TEST(AttentionBaseline, KernelPassesAndOneUlpPerStepDriftFails) {
  const OpSpec& op = *FindOp("attention");
  RunConfig cfg;
  const std::vector<Params> drawn = TierCases(op, cfg, 8);
  ASSERT_FALSE(drawn.empty());
  int checked = 0;
  for (const char* in : {"f32", "bf16"}) {
    for (const int64_t causal : {0, 1}) {
      for (const double mag : {1.0, 0.01}) {
        Params p = drawn[static_cast<size_t>(checked) % drawn.size()];
        p.Set("T", 257);
        p.Set("Hq", 2);
        p.Set("Hkv", 1);
        p.Set("D", 16);
        p.Set("in", in);
        p.Set("out", "f32");
        p.Set("causal", causal);
        p.Set("mag", mag);
        p.Set("scale", 0.25);
        const Case c = MakeCase(op, p);
        const OracleResult want = op.oracle(c);
        const Execution run = Execute(op, c, vt::ExecContext{});
        const Tolerance tol = op.outputs(c)[0].tol;
        ASSERT_EQ(tol.kind, Tolerance::Kind::kBound);  // the baseline rule as a per-element bound
        const OutputCheck ok = CheckOutput(run.after.Get("out"), want.at("out"), tol, 0.5);
        EXPECT_TRUE(ok.passed()) << p.Identity() << "\n" << FormatCheck(ok);
        TensorData drifted = run.after.Get("out");
        drifted.SetValues(DriftedAttention(attn_entry::ShapeOf(c), c.Get("query").Values(), c.Get("key").Values(),
                                           c.Get("value").Values(), p.F32("scale"), causal != 0));
        const OutputCheck bad = CheckOutput(drifted, want.at("out"), tol, 0.5);
        EXPECT_GT(bad.m.bad, 0) << "a one-ulp-per-step drift passed the baseline rule: " << p.Identity() << "\n"
                                << FormatCheck(bad);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 8);
}

}  // namespace
}  // namespace vt::conform
