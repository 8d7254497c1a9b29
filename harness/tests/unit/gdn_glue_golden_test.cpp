// The recorded gdn_decode captures (../shared/goldens/vllm-upstream) carry the
// tensors upstream derived for the decomposed chain: q_l2 / k_l2 (fla
// l2norm_fwd) and g / beta (fused_post_conv_prep's gating branch), from the raw
// q, k, v, a, b, A_log, dt_bias. gdn_post_conv on conv = [q | k | v] and
// gdn_g_beta on a, b must reproduce them within the manifest's tolerance. The
// manifest op is gdn_decode's (wt-gdn's adapter), so this is a unit test, not
// a golden adapter.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "harness/catalog/catalog.h"
#include "harness/catalog/claims.h"
#include "harness/golden/golden_io.h"

namespace vt::conform {
namespace {

namespace fs = std::filesystem;

const fs::path kShared = fs::path(VT_SOURCE_DIR) / ".." / "shared" / "goldens" / "vllm-upstream";

TensorData Out(const std::string& name, const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return TensorFromValues(name, vt::DType::kF32, shape, Role::kOutput, std::vector<double>(static_cast<std::size_t>(n), NAN));
}

TensorData In(const GoldenCase& g, const std::string& name, const std::string& as) {
  return CopyTensor(g.Get(name), as, Role::kInput);
}

void ExpectClose(const GoldenCase& g, const TensorData& got, const std::string& want_name) {
  Expected want;
  want.v = g.Get(want_name).Values();
  const OutputCheck r = CheckOutput(got, want, Golden(g.atol.value_or(1e-5), g.rtol.value_or(1e-5), "manifest"), 1.0);
  EXPECT_EQ(r.m.bad, 0) << g.dir << " " << got.name << " vs " << want_name << "\n" << FormatCheck(r);
}

TEST(GdnGlueGoldens, PostConvAndGBetaReproduceTheDerivedTensors) {
  int checked = 0;
  for (const char* name : {"gdn_decode_f32_small", "gdn_decode_f32_realdims"}) {
    const fs::path dir = kShared / name;
    if (!fs::is_directory(dir)) continue;
    const GoldenCase g = LoadGolden(dir.string());
    const TensorData& q = g.Get("q");
    const TensorData& v = g.Get("v");
    const int64_t t = q.shape[0], hk = q.shape[1], dk = q.shape[2], hv = v.shape[1], dv = v.shape[2];
    // conv row t = [q[t] | k[t] | v[t]] (the split gdn_post_conv undoes).
    const auto qs = q.Values(), ks = g.Get("k").Values(), vs = v.Values();
    std::vector<double> conv;
    for (int64_t i = 0; i < t; ++i) {
      conv.insert(conv.end(), qs.begin() + i * hk * dk, qs.begin() + (i + 1) * hk * dk);
      conv.insert(conv.end(), ks.begin() + i * hk * dk, ks.begin() + (i + 1) * hk * dk);
      conv.insert(conv.end(), vs.begin() + i * hv * dv, vs.begin() + (i + 1) * hv * dv);
    }
    Case c;
    c.params = Params("gdn_post_conv");
    c.params.Set("eps", 1e-6);  // fla l2norm_fwd's fixed eps
    c.tensors = {TensorFromValues("conv", vt::DType::kF32, {t, 2 * hk * dk + hv * dv}, Role::kInput, conv),
                 Out("q_out", {t, hk, dk}), Out("k_out", {t, hk, dk}), Out("v_out", {t, hv, dv}),
                 In(g, "a", "a"), In(g, "b", "b"), In(g, "A_log", "a_log"), In(g, "dt_bias", "dt_bias"),
                 Out("g_out", {t, hv}), Out("beta_out", {t, hv})};
    const Execution post = Execute(*FindOp("gdn_post_conv"), c, vt::ExecContext{});
    ExpectClose(g, post.after.Get("q_out"), "q_l2");
    ExpectClose(g, post.after.Get("k_out"), "k_l2");
    ExpectClose(g, post.after.Get("v_out"), "v");
    ExpectClose(g, post.after.Get("g_out"), "g");
    ExpectClose(g, post.after.Get("beta_out"), "beta");
    Case gb;
    gb.params = Params("gdn_g_beta");
    gb.tensors = {In(g, "a", "a"), In(g, "b", "b"), In(g, "A_log", "a_log"), In(g, "dt_bias", "dt_bias"),
                  Out("g_out", {t, hv}), Out("beta_out", {t, hv})};
    const Execution gate = Execute(*FindOp("gdn_g_beta"), gb, vt::ExecContext{});
    ExpectClose(g, gate.after.Get("g_out"), "g");
    ExpectClose(g, gate.after.Get("beta_out"), "beta");
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "absent: the gdn_decode captures under " << kShared;
}

}  // namespace
}  // namespace vt::conform
