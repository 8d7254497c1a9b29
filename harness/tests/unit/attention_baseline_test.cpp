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
#include "oracles/attn/online_attention.h"
#include "vt/registry.h"

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

// The flash names' rule (harness/catalog/attn/attention.cpp): the baseline
// rule over the three-pass and the online f32 evaluations. Cases of 257 keys,
// so that every row past the first tile rescales its running max.
std::vector<Case> LongCases(const OpSpec& op) {
  RunConfig cfg;
  const std::vector<Params> drawn = TierCases(op, cfg, 8);
  std::vector<Case> out;
  for (const char* in : {"f32", "bf16"}) {
    for (const int64_t causal : {0, 1}) {
      for (const double mag : {1.0, 0.01, 4.0}) {
        Params p = drawn[out.size() % drawn.size()];
        p.Set("T", 257);
        p.Set("Hq", 2);
        p.Set("Hkv", 1);
        p.Set("D", 16);
        p.Set("in", in);
        p.Set("out", "f32");
        p.Set("causal", causal);
        p.Set("mag", mag);
        p.Set("scale", 0.25);
        out.push_back(MakeCase(op, p));
      }
    }
  }
  return out;
}

oracle::OnlineUpdate UpdateOf(const std::string& op) {
  return op == "attention_dense_flash" ? oracle::OnlineUpdate::kFa1 : oracle::OnlineUpdate::kFa2;
}

std::vector<float> Online(const Case& c, oracle::OnlineUpdate rule) {
  return oracle::AttentionOnline<float>(attn_entry::ShapeOf(c), c.Get("query").Values(), c.Get("key").Values(),
                                        c.Get("value").Values(), c.params.F32("scale"), c.params.Flag("causal"),
                                        attn_entry::kFlashKeyTile, rule);
}

// The online evaluation with the rescale of the running max dropped: the
// accumulator (FA2) or the carried output (FA1) keeps weights relative to a
// stale max when a later tile raises it - the bug a flash kernel can make.
std::vector<double> DroppedRescale(const Case& c, oracle::OnlineUpdate rule) {
  const oracle::AttnShape sh = attn_entry::ShapeOf(c);
  const std::vector<double> q = c.Get("query").Values(), k = c.Get("key").Values(), v = c.Get("value").Values();
  const float scale = c.params.F32("scale");
  const bool causal = c.params.Flag("causal");
  const int64_t tile = attn_entry::kFlashKeyTile, group = sh.hq / sh.hk;
  std::vector<double> out(static_cast<size_t>(sh.tq * sh.hq * sh.d));
  for (int64_t i = 0; i < sh.tq; ++i) {
    for (int64_t h = 0; h < sh.hq; ++h) {
      const int64_t n = causal ? i + 1 : sh.tq, g = h / group;
      const size_t qo = static_cast<size_t>((i * sh.hq + h) * sh.d);
      float m = -INFINITY, l = 0.0f;
      std::vector<float> o(static_cast<size_t>(sh.d), 0.0f), s(static_cast<size_t>(tile));
      for (int64_t j0 = 0; j0 < n; j0 += tile) {
        const int64_t cnt = std::min(tile, n - j0);
        float mt = -INFINITY;
        for (int64_t cc = 0; cc < cnt; ++cc) {
          float dot = 0.0f;
          for (int64_t e = 0; e < sh.d; ++e) {
            dot += static_cast<float>(q[qo + static_cast<size_t>(e)]) *
                   static_cast<float>(k[static_cast<size_t>(((j0 + cc) * sh.hk + g) * sh.d + e)]);
          }
          s[static_cast<size_t>(cc)] = dot * scale;
          mt = std::max(mt, s[static_cast<size_t>(cc)]);
        }
        const float mn = std::max(m, mt), a = std::exp(m - mn), b = std::exp(mt - mn);
        const float ref = rule == oracle::OnlineUpdate::kFa2 ? mn : mt;
        float sum = 0.0f;
        for (int64_t cc = 0; cc < cnt; ++cc) sum += s[static_cast<size_t>(cc)] = std::exp(s[static_cast<size_t>(cc)] - ref);
        const float ln = rule == oracle::OnlineUpdate::kFa2 ? a * l + sum : a * l + b * sum;
        for (int64_t e = 0; e < sh.d; ++e) {
          float pv = 0.0f;
          for (int64_t cc = 0; cc < cnt; ++cc) {
            pv += s[static_cast<size_t>(cc)] * static_cast<float>(v[static_cast<size_t>(((j0 + cc) * sh.hk + g) * sh.d + e)]);
          }
          float& oe = o[static_cast<size_t>(e)];
          oe = rule == oracle::OnlineUpdate::kFa2 ? oe + pv : (l * oe + b * pv) / ln;  // no `a`
        }
        l = ln;
        m = mn;
      }
      for (int64_t e = 0; e < sh.d; ++e) {
        const float oe = o[static_cast<size_t>(e)];
        out[qo + static_cast<size_t>(e)] = rule == oracle::OnlineUpdate::kFa2 ? oe / l : oe;
      }
    }
  }
  return out;
}

// The CUDA flash kernels on cuda-emu give online<float>'s bytes (f32 out):
// the reference the rule is derived from is the algorithm the kernels run,
// tile size included. (On a device exp may differ: not checked here.)
TEST(AttentionFlashBaseline, KernelIsTheOnlineReference) {
  for (const char* name : {"attention_dense_flash", "attention_dense_fa2"}) {
    if (!vt::HasKernel(name, vt::Backend::kCudaEmu)) GTEST_SKIP() << "no cuda-emu build";
    const OpSpec& op = *FindOp(name);
    std::vector<Case> cases = LongCases(op);
    RunConfig cfg;
    for (Params p : TierCases(op, cfg, 16)) {
      p.Set("out", "f32");
      cases.push_back(MakeCase(op, p));
    }
    int64_t not_three_pass = 0;  // cases where the two orders round differently: the check has teeth
    for (const Case& c : cases) {
      const Execution run = Execute(op, c, vt::ExecContext{vt::Backend::kCudaEmu, 1, false});
      ASSERT_TRUE(run.guard_error.empty()) << run.guard_error;
      const std::vector<double> got = run.after.Get("out").Values();
      const std::vector<float> want = Online(c, UpdateOf(name));
      ASSERT_EQ(got.size(), want.size());
      int64_t differ = 0;
      for (size_t k = 0; k < got.size(); ++k) differ += got[k] != static_cast<double>(want[k]);
      EXPECT_EQ(differ, 0) << name << " " << c.params.Identity();
      const std::vector<float> three_pass = oracle::Attention<float>(
          attn_entry::ShapeOf(c), c.Get("query").Values(), c.Get("key").Values(), c.Get("value").Values(),
          c.params.F32("scale"), c.params.Flag("causal"));
      not_three_pass += three_pass != want;
    }
    EXPECT_GT(not_three_pass, 0) << name << ": the online order never rounded differently from the three passes";
  }
}

// The rule admits the online evaluation and the three-pass one, and rejects
// the online evaluation with its rescale dropped and the three-pass one
// drifting one ulp per key step.
TEST(AttentionFlashBaseline, PlantedDriftsFail) {
  for (const char* name : {"attention_dense_flash", "attention_dense_fa2"}) {
    const OpSpec& op = *FindOp(name);
    for (const Case& c : LongCases(op)) {
      const OracleResult want = op.oracle(c);
      const Tolerance tol = op.outputs(c)[0].tol;
      ASSERT_EQ(tol.kind, Tolerance::Kind::kBound);
      const oracle::OnlineUpdate rule = UpdateOf(name);
      TensorData got = c.Get("out");
      const std::vector<float> online = Online(c, rule);
      got.SetValues(std::vector<double>(online.begin(), online.end()));
      EXPECT_TRUE(CheckOutput(got, want.at("out"), tol, 0.5).passed()) << name << " " << c.params.Identity();
      const Execution cpu = Execute(op, c, vt::ExecContext{});
      EXPECT_TRUE(CheckOutput(cpu.after.Get("out"), want.at("out"), tol, 0.5).passed()) << c.params.Identity();
      got.SetValues(DroppedRescale(c, rule));
      EXPECT_GT(CheckOutput(got, want.at("out"), tol, 0.5).m.bad, 0)
          << "a dropped rescale passed: " << name << " " << c.params.Identity();
      got.SetValues(DriftedAttention(attn_entry::ShapeOf(c), c.Get("query").Values(), c.Get("key").Values(),
                                     c.Get("value").Values(), c.params.F32("scale"), c.params.Flag("causal")));
      EXPECT_GT(CheckOutput(got, want.at("out"), tol, 0.5).m.bad, 0)
          << "a one-ulp-per-step drift passed: " << name << " " << c.params.Identity();
    }
  }
}

}  // namespace
}  // namespace vt::conform
