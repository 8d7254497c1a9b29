// `rope` goldens beyond the one recorded case (rope_f32_pos_short): the
// adapter must take any case of vLLM's format - bf16, GPT-J pairing
// (is_neox_style=False), positions far past the short range, other rotary and
// head sizes. Each expected output is written from the definition here, in
// double (cos/sin of pos * base^(-2i/rot), the rotation, one rounding to the
// golden's dtype), independently of the catalog's oracle; a 5% perturbation
// must fail, and a scaled rope_type is UNSUPPORTED (long_context_rope owns it).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "harness/modes/golden_check.h"
#include "harness/golden/manifest.h"
#include "harness/golden/npy.h"
#include "harness/modes/mode.h"
#include "harness/tests/unit/golden_files.h"

namespace vt::conform {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
// Writes name.npy and its manifest entry (golden_files.h).
const auto& Write = golden_files::WriteTensor;

struct RopeVariant {
  std::string name, dtype;
  bool neox;
  int64_t t, hq, hk, d, rot;
  double base;
  std::vector<int64_t> positions;
  double atol, rtol;
};

// x [t, heads*d] rotated by the definition, in double, rounded to `fmt`.
std::vector<double> Rotate(const RopeVariant& v, std::vector<double> x, int64_t heads, oracle::Fmt fmt,
                           double perturb) {
  for (int64_t t = 0; t < v.t; ++t) {
    for (int64_t h = 0; h < heads; ++h) {
      const int64_t at = (t * heads + h) * v.d;
      for (int64_t i = 0; i < v.rot / 2; ++i) {
        const double angle = static_cast<double>(v.positions[static_cast<std::size_t>(t)]) *
                             std::pow(v.base, -2.0 * static_cast<double>(i) / static_cast<double>(v.rot));
        const int64_t a = at + (v.neox ? i : 2 * i), b = at + (v.neox ? i + v.rot / 2 : 2 * i + 1);
        const double xa = x[static_cast<std::size_t>(a)], xb = x[static_cast<std::size_t>(b)];
        x[static_cast<std::size_t>(a)] = xa * std::cos(angle) - xb * std::sin(angle);
        x[static_cast<std::size_t>(b)] = xa * std::sin(angle) + xb * std::cos(angle);
      }
    }
  }
  for (double& e : x) e = oracle::RoundReal(fmt, e * (1.0 + perturb));
  return x;
}

fs::path WriteRope(const RopeVariant& v, double perturb, const std::string& rope_type = "default") {
  const fs::path d = fs::temp_directory_path() / ("vt_rope_golden_" + std::to_string(getpid())) /
                     (v.name + (perturb != 0.0 ? "_bad" : ""));
  fs::remove_all(d);
  fs::create_directories(d);
  const oracle::Fmt fmt = v.dtype == "bf16" ? oracle::Fmt::kBF16 : oracle::Fmt::kF32;
  Json tensors = Json::object();
  std::vector<double> q(static_cast<std::size_t>(v.t * v.hq * v.d)), k(static_cast<std::size_t>(v.t * v.hk * v.d));
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = oracle::RoundReal(fmt, std::sin(0.37 * static_cast<double>(i) + 0.1));
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = oracle::RoundReal(fmt, std::cos(0.23 * static_cast<double>(i) + 0.4));
  Write(d, tensors, "q_in", v.dtype, {v.t, v.hq * v.d}, q);
  Write(d, tensors, "k_in", v.dtype, {v.t, v.hk * v.d}, k);
  std::vector<double> pos(v.positions.begin(), v.positions.end());
  Write(d, tensors, "positions", "i64", {v.t}, pos);
  Write(d, tensors, "q_out", v.dtype, {v.t, v.hq * v.d}, Rotate(v, q, v.hq, fmt, perturb));
  Write(d, tensors, "k_out", v.dtype, {v.t, v.hk * v.d}, Rotate(v, k, v.hk, fmt, perturb));
  const std::string call = "get_rope(head_size=" + std::to_string(v.d) + ", is_neox_style=" +
                           (v.neox ? "True" : "False") + ", rope_parameters={'rope_type': '" + rope_type + "'})";
  const Json m = {{"op", "rope"},
                  {"args", {{"base", v.base}, {"rotary_dim", v.rot}, {"head_size", v.d}, {"num_q_heads", v.hq},
                            {"num_kv_heads", v.hk}, {"get_rope_call", call}}},
                  {"tensors", tensors},
                  {"inputs", {"q_in", "k_in", "positions"}},
                  {"outputs", {"q_out", "k_out"}},
                  {"tol", {{"atol", v.atol}, {"rtol", v.rtol}}}};
  std::ofstream(d / "manifest.json") << m.dump(1);
  return d;
}

TEST(RopeGoldens, VariantsOfTheUpstreamFormat) {
  const std::vector<RopeVariant> variants = {
      {"f32_gptj", "f32", false, 6, 4, 2, 64, 32, 10000.0, {0, 1, 7, 100, 4095, 5000}, 1e-5, 1e-5},
      {"bf16_neox", "bf16", true, 5, 2, 1, 128, 128, 500000.0, {3, 9, 64, 1000, 2047}, 1e-2, 1.6e-2},
      {"bf16_gptj", "bf16", false, 4, 3, 3, 64, 64, 10000.0, {5, 3, 900, 77}, 1e-2, 1.6e-2},
      {"f32_neox_131k", "f32", true, 4, 2, 2, 64, 32, 10000.0, {131040, 131060, 131080, 131096}, 2e-2, 0.0},
      {"f32_gptj_131k", "f32", false, 3, 1, 1, 80, 16, 1000000.0, {131000, 65536, 131071}, 2e-2, 0.0},
  };
  for (const RopeVariant& v : variants) {
    const CaseResult ok = CheckGoldenDir(WriteRope(v, 0.0).string(), RunConfig{});
    EXPECT_EQ(ok.status, Outcome::kPassed) << v.name << ": " << ok.reason << "\n" << ok.detail;
    EXPECT_EQ(ok.op, v.neox ? "rope_neox" : "rope_from_cache") << v.name;
    const CaseResult bad = CheckGoldenDir(WriteRope(v, 0.05).string(), RunConfig{});
    EXPECT_EQ(bad.status, Outcome::kFailedIncorrect) << v.name << " perturbed: " << bad.reason;
  }
  const CaseResult scaled = CheckGoldenDir(WriteRope(variants[0], 0.0, "yarn").string(), RunConfig{});
  EXPECT_EQ(scaled.status, Outcome::kUnsupported) << scaled.reason;
}

}  // namespace
}  // namespace vt::conform
