// The rope scalings (harness/golden/rope_scaling.*): every vLLM scaling the
// module builds, checked three ways.
//  1. Against a definition evaluated in double, written here apart from the
//     module, straight from the formulas of docs/ops/rope.md ("Rope
//     scalings"): the module's f32 evaluation must stay within a bound derived
//     from its rounding steps, so a formula slip (a ramp bound, a band test,
//     an mscale rule, the Phi-3 switch) shows as an error far above it.
//  2. Against the caches upstream vLLM recorded (../shared/goldens, the
//     long_rope_* cases): within 2 f32 ulps (torch's cos/sin are not always
//     correctly rounded, and * mscale doubles that ulp; everything else is
//     reproduced step for step).
//  3. Parsing: vLLM's key spellings, and refusals that name the key.
// vLLM itself over a grid of parameters: golden/regen/rope_scalings.py
// (needs a venv with torch + vLLM; results recorded in docs/ops/rope.md).
#include "harness/golden/rope_scaling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include "harness/catalog/claims.h"
#include "harness/catalog/composite/composite_adapters.h"
#include "harness/golden/golden_io.h"
#include "oracles/format.h"

namespace vt::conform::rope {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// The recorded captures; VT_SHARED_GOLDENS overrides (vt-mutate's scratch
// copy has no ../shared beside it and points here at the real one).
const fs::path kShared = std::getenv("VT_SHARED_GOLDENS") != nullptr
                             ? fs::path(std::getenv("VT_SHARED_GOLDENS"))
                             : fs::path(VT_SOURCE_DIR) / ".." / "shared" / "goldens" / "vllm-upstream";
constexpr double kU = 0x1p-24;  // f32 unit roundoff

// ---- the definition, in double ------------------------------------------

struct DefSegment {
  int64_t rows;
  std::vector<double> inv;
  double mscale = 1, t_div = 1;
};

std::vector<double> DefBase(double base, int64_t rot) {
  std::vector<double> v;
  for (int64_t i = 0; i < rot; i += 2) v.push_back(std::pow(base, -static_cast<double>(i) / rot));
  return v;
}

double DefYarnDim(double rotations, int64_t dim, double base, double max_pos) {
  return dim * std::log(max_pos / (rotations * 2 * M_PI)) / (2 * std::log(base));
}

double DefMscale(double scale, double m) { return scale <= 1 ? 1.0 : 1.0 + 0.1 * m * std::log(scale); }

std::vector<DefSegment> Definition(const RopeScaling& s) {
  const int64_t rot = s.rotary_dim, half = rot / 2;
  std::vector<DefSegment> segs;
  switch (s.kind) {
    case Kind::kDefault:
      segs.push_back({s.max_position * (s.Mrope() ? s.mrope_positions_factor : 1), DefBase(s.theta, rot)});
      break;
    case Kind::kLinear:
      for (double f : s.factors) {
        segs.push_back({static_cast<int64_t>(std::ceil(s.max_position * f)), DefBase(s.theta, rot), 1, f});
      }
      break;
    case Kind::kLlama3: {
      std::vector<double> inv = DefBase(s.theta, rot);
      const double lo = s.low_freq_factor, hi = s.high_freq_factor, L = s.original_max_position;
      for (double& f : inv) {
        const double wl = 2 * M_PI / f;
        if (wl < L / hi) continue;
        if (wl > L / lo) {
          f /= s.factors[0];
        } else {
          const double smooth = (L / wl - lo) / (hi - lo);
          f = (1 - smooth) * f / s.factors[0] + smooth * f;
        }
      }
      segs.push_back({s.max_position, inv});
      break;
    }
    case Kind::kDynamicFactor: {
      const double f = s.factors[0];
      const double b = s.theta * std::pow(f * s.max_position / s.max_trained_positions - (f - 1),
                                          static_cast<double>(rot) / (rot - 2));
      segs.push_back({s.max_position, DefBase(b, rot)});
      break;
    }
    case Kind::kDynamicAlpha:
      segs.push_back(
          {s.max_position, DefBase(s.theta * std::pow(s.alpha, static_cast<double>(rot) / (rot - 2)), rot)});
      break;
    case Kind::kYarn: {
      const double f = s.factors[0];
      const double L = static_cast<double>(s.original_max_position) * (s.Mrope() ? s.mrope_positions_factor : 1);
      double lo = DefYarnDim(s.beta_fast, rot, s.theta, L), hi = DefYarnDim(s.beta_slow, rot, s.theta, L);
      if (s.truncate) lo = std::floor(lo), hi = std::ceil(hi);
      lo = std::max(lo, 0.0);
      hi = std::min(hi, static_cast<double>(rot - 1));
      if (lo == hi) hi += 0.001;
      std::vector<double> inv;
      for (int64_t i = 0; i < half; ++i) {
        const double extrap = std::pow(s.theta, -2.0 * i / rot);
        const double ramp = std::clamp((i - lo) / (hi - lo), 0.0, 1.0);
        const double keep = (1 - ramp) * s.extrapolation_factor;  // weight of the extrapolated frequency
        inv.push_back(extrap / f * (1 - keep) + extrap * keep);
      }
      double m;
      if (s.attention_factor) {
        m = *s.attention_factor;
      } else if (s.mscale.value_or(0) != 0 && s.mscale_all_dim.value_or(0) != 0) {
        m = DefMscale(f, *s.mscale) / DefMscale(f, *s.mscale_all_dim);
      } else {
        m = (s.apply_yarn_scaling ? DefMscale(f, 1) : 1.0) * s.attn_factor;
      }
      segs.push_back({static_cast<int64_t>(std::ceil(L * f)), inv, m});
      break;
    }
    case Kind::kNtk: {
      const double f = s.factors[0];
      std::vector<double> inv;
      for (int64_t i = 0; i < half; ++i) {
        if (!s.mixed_b) {  // fixed NTK: base * factor, scaled by factor^(-2/rot)
          inv.push_back(std::pow(s.theta * f, -2.0 * i / rot) * std::pow(f, -2.0 / rot));
        } else {  // mixed: divided by exp(ln(factor) * ((i + 1) / (rot / 2))^b)
          inv.push_back(std::pow(s.theta, -2.0 * i / rot) /
                        std::exp(std::log(f) * std::pow((i + 1.0) / half, *s.mixed_b)));
        }
      }
      segs.push_back({s.max_position, inv});
      break;
    }
    case Kind::kDeepseekYarn: {
      const double f = s.factors[0], L = static_cast<double>(s.original_max_position);
      const double lo = std::max(std::floor(DefYarnDim(s.beta_fast, rot, s.theta, L)), 0.0);
      double hi = std::min(std::ceil(DefYarnDim(s.beta_slow, rot, s.theta, L)), static_cast<double>(rot - 1));
      if (lo == hi) hi += 0.001;
      std::vector<double> inv;
      for (int64_t i = 0; i < half; ++i) {
        const double extrap = std::pow(s.theta, -2.0 * i / rot);
        const double keep = 1 - std::clamp((i - lo) / (hi - lo), 0.0, 1.0);
        inv.push_back(extrap / f * (1 - keep) + extrap * keep);
      }
      const double m = DefMscale(f, s.mscale.value_or(1)) / DefMscale(f, s.mscale_all_dim.value_or(0));
      segs.push_back({static_cast<int64_t>(std::ceil(L * f)), inv, m});
      break;
    }
    case Kind::kLongRope: {
      const double L = s.original_max_position, scale = s.max_position / L;
      const double m = scale <= 1 ? 1 : std::sqrt(1 + std::log(scale) / std::log(L));
      std::vector<double> sh = DefBase(s.theta, rot), lg = DefBase(s.theta, rot);
      for (int64_t i = 0; i < half; ++i) sh[i] /= s.short_factor[i], lg[i] /= s.long_factor[i];
      segs.push_back({s.original_max_position, sh, s.short_mscale.value_or(m)});
      segs.push_back({s.max_position, lg, s.long_mscale.value_or(m)});
      break;
    }
  }
  return segs;
}

// Worst |f32 module - double definition| / bound over every cache element.
// The bound: inv_freq through <= 8 f32 roundings plus the exponent's rounding
// (e * ln(base) * u, e <= 1) and the ramp / smooth weights (<= 2u * factor of
// the interpolated value); the angle multiplies that relative error by |angle|;
// cos/sin, mscale and the angle each add one more rounding.
double WorstRatio(const RopeScaling& s, std::string* where) {
  const CachePlan plan = PlanCache(s);
  const std::vector<DefSegment> def = Definition(s);
  EXPECT_EQ(plan.segments.size(), def.size());
  const int64_t half = s.rotary_dim / 2;
  double worst = 0;
  int64_t row0 = 0;
  std::vector<float> got(static_cast<std::size_t>(s.rotary_dim));
  for (std::size_t k = 0; k < def.size() && k < plan.segments.size(); ++k) {
    EXPECT_EQ(plan.segments[k].rows, def[k].rows) << "segment " << k;
    const double factor = s.factors.empty() ? 1 : s.factors[k < s.factors.size() ? k : 0];
    const double max_lnb = std::fabs(std::log(s.theta)) + 2;  // dynamic bases are larger: +2 covers them
    const double rel_inv = (8 + 2 * std::max(factor, 1.0) + max_lnb) * kU;
    for (int64_t r = 0; r < std::min(def[k].rows, plan.segments[k].rows); ++r) {
      FillRow(plan, row0 + r, got.data());
      const double t = static_cast<double>(r) / def[k].t_div;
      for (int64_t i = 0; i < half; ++i) {
        const double angle = t * def[k].inv[i];
        const double m = std::fabs(def[k].mscale);
        const double bound = m * (std::fabs(angle) * (rel_inv + 3 * kU) + 4 * kU) + 1e-30;
        const double dc = std::fabs(got[i] - std::cos(angle) * def[k].mscale);
        const double ds = std::fabs(got[half + i] - std::sin(angle) * def[k].mscale);
        const double ratio = std::max(dc, ds) / bound;
        if (ratio > worst) {
          worst = ratio;
          *where = "segment " + std::to_string(k) + " row " + std::to_string(r) + " pair " + std::to_string(i);
        }
      }
    }
    row0 += plan.segments[k].rows;
  }
  return worst;
}

RopeScaling Parse(const Json& p, int64_t head = 16, int64_t max_pos = 128, bool neox = true,
                  std::optional<int64_t> max_model_len = std::nullopt) {
  return ParseRopeScaling(p, head, max_pos, neox, max_model_len);
}

// A grid per scaling: the parameters the recorded cases use and their
// neighbours (gptj, untruncated, overrides, equal factors, large positions).
std::vector<std::pair<std::string, RopeScaling>> Grid() {
  std::vector<std::pair<std::string, RopeScaling>> g;
  const auto add = [&](const std::string& name, const Json& p, int64_t head, int64_t max_pos,
                       std::optional<int64_t> mml = std::nullopt) { g.push_back({name, Parse(p, head, max_pos, true, mml)}); };
  add("default", {{"rope_type", "default"}, {"rope_theta", 10000.0}, {"rope_dim", 32}}, 64, 4096);
  add("default-partial", {{"partial_rotary_factor", 0.5}, {"rope_theta", 500000.0}}, 128, 256);
  add("linear", {{"rope_type", "linear"}, {"factor", 4.0}}, 16, 128);
  add("linear-2", {{"rope_type", "linear"}, {"factor", Json::array({2.0, 3.5})}}, 16, 64);
  add("llama3", {{"rope_type", "llama3"}, {"rope_dim", 16}, {"factor", 4.0}, {"low_freq_factor", 1.0},
                 {"high_freq_factor", 4.0}, {"original_max_position_embeddings", 32}}, 24, 128);
  add("llama3-equal", {{"rope_type", "llama3"}, {"rope_dim", 16}, {"factor", 4.0}, {"low_freq_factor", 2.0},
                       {"high_freq_factor", 2.0}, {"original_max_position_embeddings", 32}}, 24, 128);
  add("llama3-8b", {{"rope_type", "llama3"}, {"rope_theta", 500000.0}, {"factor", 8.0}, {"low_freq_factor", 1.0},
                    {"high_freq_factor", 4.0}, {"original_max_position_embeddings", 8192}}, 128, 1024);
  add("dynamic-factor1", {{"rope_type", "dynamic"}, {"rope_dim", 8}, {"factor", 1.0}}, 16, 128);
  add("dynamic-factor", {{"rope_type", "dynamic"}, {"rope_dim", 8}, {"factor", 4.0}, {"max_trained_positions", 32}}, 16, 128);
  add("dynamic-alpha", {{"rope_type", "dynamic"}, {"rope_dim", 8}, {"alpha", 2.0}, {"factor", 9.0}}, 16, 128);
  const Json yarn = {{"rope_type", "yarn"}, {"rope_dim", 8}, {"factor", 4.0}, {"original_max_position_embeddings", 32}};
  add("yarn", yarn, 16, 128);
  Json y2 = yarn;
  y2.update(Json{{"extrapolation_factor", 0.75}, {"attn_factor", 0.8}, {"beta_fast", 16}, {"beta_slow", 2},
                 {"apply_yarn_scaling", false}, {"truncate", false}});
  add("yarn-untruncated-no-mscale", y2, 16, 128);
  Json ya = yarn;
  ya["attn_factor"] = 1.1;  // the recorded bf16 YaRN case's magnitude: g(factor) * attn_factor
  add("yarn-attn-factor", ya, 16, 128);
  Json y3 = yarn;
  y3.update(Json{{"mscale", 0.707}, {"mscale_all_dim", 1.0}, {"beta_fast", 8}});
  add("yarn-mscale-all-dim", y3, 16, 128);
  Json y4 = yarn;
  y4.update(Json{{"attention_factor", 1.25}, {"rope_dim", 64}, {"original_max_position_embeddings", 4096}});
  add("yarn-attention-factor", y4, 64, 16384);
  add("ntk-fixed", {{"rope_type", "ntk"}, {"rope_dim", 16}, {"factor", 4.0}}, 16, 256);
  add("ntk-mixed", {{"rope_type", "ntk"}, {"rope_dim", 16}, {"factor", 4.0}, {"mixed_b", 0.75}}, 16, 256);
  add("deepseek-yarn", {{"rope_type", "deepseek_yarn"}, {"rope_dim", 16}, {"factor", 40.0},
                        {"original_max_position_embeddings", 64}, {"mscale", 1.0}, {"mscale_all_dim", 1.0}}, 24, 128);
  add("deepseek-yarn-default-mscale", {{"rope_type", "deepseek_llama_scaling"}, {"rope_dim", 8}, {"factor", 4.0},
                                       {"original_max_position_embeddings", 32}, {"beta_fast", 16}}, 16, 128);
  Json ym = yarn;
  ym["mrope_section"] = Json::array({1, 1, 2});
  add("yarn-mrope", ym, 16, 128);
  ym["mrope_interleaved"] = true;
  add("yarn-mrope-interleaved", ym, 16, 128);
  add("mrope-default", {{"rope_type", "default"}, {"rope_dim", 8}, {"mrope_section", Json::array({2, 1, 1})}}, 16, 64);
  const Json lr = {{"rope_type", "longrope"}, {"rope_dim", 8}, {"original_max_position_embeddings", 32},
                   {"short_factor", Json::array({1.0, 1.1, 1.2, 1.3})}, {"long_factor", Json::array({2.0, 2.2, 2.4, 2.6})}};
  add("longrope-short", lr, 16, 128, 32);
  add("longrope-long", lr, 16, 128, 128);
  Json lr2 = lr;
  lr2.update(Json{{"short_mscale", 0.75}, {"long_mscale", 1.25}});
  add("longrope-mscale-override", lr2, 16, 128, 128);
  return g;
}

TEST(RopeScaling, EveryScalingWithinItsF32BoundOfTheDefinition) {
  for (const auto& [name, s] : Grid()) {
    std::string where;
    const double worst = WorstRatio(s, &where);
    EXPECT_LE(worst, 1.0) << name << ": " << where << " is " << worst << "x its f32 bound";
  }
}

// A long table: 131k positions at the real Llama-3 8B frequencies. The bound
// grows with |angle|, so this is where a frequency slip is loudest.
TEST(RopeScaling, LargePositions) {
  const RopeScaling s = Parse({{"rope_type", "llama3"}, {"rope_theta", 500000.0}, {"rope_dim", 16}, {"factor", 8.0},
                               {"low_freq_factor", 1.0}, {"high_freq_factor", 4.0},
                               {"original_max_position_embeddings", 8192}},
                              16, 131072);
  std::string where;
  EXPECT_LE(WorstRatio(s, &where), 1.0) << where;
}

TEST(RopeScaling, YarnCorrectionRange) {
  // dim 8, base 1e4, L 32: low = 8 ln(32 / 64pi) / (2 ln 1e4) = -0.80 -> floor -1 -> 0;
  // high = 8 ln(32 / 2pi) / (2 ln 1e4) = 0.707 -> ceil 1.
  auto r = YarnCorrectionRange(32, 1, 8, 10000, 32, true);
  EXPECT_EQ(r.first, 0);
  EXPECT_EQ(r.second, 1);
  // L 128 (mrope: 32 * positions_factor 4): high = 1.309 -> 2.
  r = YarnCorrectionRange(32, 1, 8, 10000, 128, true);
  EXPECT_EQ(r.second, 2);
  // Untruncated: the raw values; the upper clamp is dim - 1 (not dim / 2 - 1).
  r = YarnCorrectionRange(16, 2, 8, 10000, 32, false);
  EXPECT_NEAR(r.second, 8 * std::log(32 / (4 * M_PI)) / (2 * std::log(10000.0)), 1e-15);
  EXPECT_EQ(YarnCorrectionRange(1, 1e-9, 8, 10, 1e12, true).second, 7);
}

TEST(RopeScaling, CacheShapesAndRows) {
  for (const auto& [name, s] : Grid()) {
    const CachePlan p = PlanCache(s);
    int64_t want = 0;
    switch (s.kind) {
      case Kind::kYarn:
      case Kind::kDeepseekYarn:
        want = static_cast<int64_t>(std::ceil(s.original_max_position * (s.Mrope() ? 4 : 1) * s.factors[0]));
        break;
      case Kind::kLongRope: want = s.original_max_position + s.max_position; break;
      case Kind::kLinear:
        for (double f : s.factors) want += static_cast<int64_t>(std::ceil(s.max_position * f));
        break;
      default: want = s.max_position * (s.Mrope() ? 4 : 1);
    }
    EXPECT_EQ(p.Rows(), want) << name;
  }
  // Phi-3: the long half is read when max_model_len exceeds the original.
  const Json lr = {{"rope_type", "longrope"}, {"rope_dim", 4}, {"original_max_position_embeddings", 32},
                   {"short_factor", Json::array({1.0, 1.0})}, {"long_factor", Json::array({2.0, 2.0})}};
  EXPECT_EQ(CacheRow(Parse(lr, 8, 128, true, 32), 5), 5);
  EXPECT_EQ(CacheRow(Parse(lr, 8, 128, true, 33), 5), 37);
  EXPECT_EQ(CacheRow(Parse(lr, 8, 128, true, std::nullopt), 5), 37);  // default max_model_len = max_position
  EXPECT_EQ(CacheRow(Parse(lr, 8, 32, true, std::nullopt), 5), 5);
}

TEST(RopeScaling, YarnMscaleRules) {
  const Json y = {{"rope_type", "yarn"}, {"rope_dim", 8}, {"factor", 4.0}, {"original_max_position_embeddings", 32}};
  EXPECT_DOUBLE_EQ(YarnMscale(Parse(y)), 1 + 0.1 * std::log(4.0));
  Json v = y;
  v["attn_factor"] = 1.1;
  EXPECT_DOUBLE_EQ(YarnMscale(Parse(v)), (1 + 0.1 * std::log(4.0)) * 1.1);
  v["apply_yarn_scaling"] = false;
  EXPECT_DOUBLE_EQ(YarnMscale(Parse(v)), 1.1);
  v = y;
  v.update(Json{{"mscale", 2.0}, {"mscale_all_dim", 1.0}});
  EXPECT_DOUBLE_EQ(YarnMscale(Parse(v)), (1 + 0.2 * std::log(4.0)) / (1 + 0.1 * std::log(4.0)));
  v["mscale_all_dim"] = 0.0;  // `mscale and mscale_all_dim` is false: the plain rule
  EXPECT_DOUBLE_EQ(YarnMscale(Parse(v)), 1 + 0.1 * std::log(4.0));
  v["attention_factor"] = 0.5;
  EXPECT_DOUBLE_EQ(YarnMscale(Parse(v)), 0.5);
  v = y;
  v["factor"] = 1.0;  // no enlargement: no magnitude correction
  EXPECT_DOUBLE_EQ(YarnMscale(Parse(v)), 1.0);
}

TEST(RopeScaling, ParseSpellingsAndRefusals) {
  EXPECT_EQ(Parse({{"type", "su"}, {"rope_dim", 4}, {"original_max_position_embeddings", 8},
                   {"short_factor", {1, 1}}, {"long_factor", {2, 2}}}).kind,
            Kind::kLongRope);
  EXPECT_EQ(Parse({{"type", "mrope"}, {"rope_dim", 4}, {"mrope_section", {1, 0, 1}}}).kind, Kind::kDefault);
  EXPECT_EQ(Parse(Json::object()).rotary_dim, 16);  // head_size * partial_rotary_factor 1.0
  EXPECT_EQ(Parse({{"rope_type", "dynamic"}, {"alpha", 2.0}, {"factor", 9.0}}).kind, Kind::kDynamicAlpha);
  const auto refused = [](const Json& p, const std::string& fragment) {
    try {
      Parse(p);
      ADD_FAILURE() << "accepted: " << p.dump();
    } catch (const RopeScalingError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  refused({{"rope_type", "yarnn"}}, "unknown rope scaling type 'yarnn'");
  refused({{"rope_type", 3}}, "rope_type");
  refused({{"rope_type", "yarn"}, {"factor", "4"}, {"original_max_position_embeddings", 32}}, "factor");
  refused({{"rope_type", "yarn"}, {"factor", 4.0}}, "original_max_position_embeddings");
  refused({{"rope_type", "yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 32}, {"truncate", 1}},
          "truncate");
  refused({{"rope_type", "llama3"}, {"factor", 4.0}, {"low_freq_factor", 0.0}, {"high_freq_factor", 4.0},
           {"original_max_position_embeddings", 32}},
          "low_freq_factor");
  refused({{"rope_type", "dynamic"}}, "'alpha' or 'factor'");
  refused({{"rope_dim", 7}}, "rope_dim");
  refused({{"rope_dim", 32}}, "rope_dim");  // > head_size 16
  refused({{"rope_dim", 8}, {"mrope_section", {1, 1, 1}}}, "sum to rotary_dim / 2");
  refused({{"rope_type", "longrope"}, {"rope_dim", 8}, {"original_max_position_embeddings", 32},
           {"short_factor", {1, 1, 1}}, {"long_factor", {2, 2, 2, 2}}},
          "short_factor");
  EXPECT_THROW(Parse({{"rope_type", "mllama4"}}), RopeScalingUnsupported);
  EXPECT_THROW(Parse({{"rope_type", "deepseek_yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 32},
                      {"is_deepseek_v4", true}}),
               RopeScalingUnsupported);
  EXPECT_THROW(Parse({{"rope_type", "longrope"}, {"rope_dim", 4}, {"original_max_position_embeddings", 8},
                      {"short_factor", {1, 1}}, {"long_factor", {2, 2}}},
                     16, 128, /*neox=*/false),
               RopeScalingError);
}

// Recorded caches: every long_context_rope case under `root` that records its
// cache (f32 or bf16). Bits: the module reproduces vLLM's f32 steps, so only
// torch's cos/sin (and pow) rounding may differ: f32 within 2 ulps (torch's
// Sleef u10 cos/sin differ from the correctly rounded value by <= 1 ulp on a
// few % of the angles - the angles themselves are bit-exact, checked with
// torch on the module's angles - and YaRN / Phi-3's `* mscale` turns one ulp
// of cos into up to two of the product); bf16 (vLLM casts the f32 cache)
// within 1 bf16 ulp (that f32 ulp may decide a rounding). Returns the count.
int CheckRecordedCaches(const fs::path& root, double min_exact) {
  int checked = 0;
  for (const std::string& dir : FindGoldenDirs({root.string()})) {
    const GoldenCase g = LoadGolden(dir);
    if (g.op != "long_context_rope" || !g.Has("cos_sin_cache")) continue;
    const TensorData& cache = g.Get("cos_sin_cache");
    const RopeScaling s = ParseRopeScaling(g.args.at("rope_parameters"), *g.ArgInt("head_size"),
                                           *g.ArgInt("max_position"), g.ArgBool("is_neox_style", true),
                                           g.ArgInt("max_model_len"));
    const std::vector<float> got = BuildCache(PlanCache(s));
    const std::vector<double> want = cache.Values();
    EXPECT_EQ(got.size(), want.size()) << dir;
    if (got.size() != want.size()) continue;
    const double max_ulps = cache.fmt == oracle::Fmt::kF32 ? 2 : 1;
    int64_t exact = 0, over = 0;
    double worst = 0;
    for (std::size_t k = 0; k < got.size(); ++k) {
      const double g_r = oracle::RoundReal(cache.fmt, got[k]);
      const double ulps = std::fabs(g_r - want[k]) / oracle::UlpOf(cache.fmt, want[k]);
      worst = std::max(worst, ulps);
      exact += ulps == 0 ? 1 : 0;
      over += ulps > max_ulps ? 1 : 0;
    }
    EXPECT_EQ(over, 0) << dir << ": worst " << worst << " ulps";
    EXPECT_GE(static_cast<double>(exact), min_exact * static_cast<double>(got.size())) << dir;
    std::printf("%s: %lld/%zu cache elements bit-exact, worst %.3g ulp (%s)\n", dir.c_str(),
                static_cast<long long>(exact), got.size(), worst, std::string(oracle::Name(cache.fmt)).c_str());
    ++checked;
  }
  return checked;
}

TEST(RopeScaling, RecordedUpstreamCaches) {
  if (!fs::is_directory(kShared)) GTEST_SKIP() << "absent: " << kShared << " (the recorded upstream captures)";
  EXPECT_GE(CheckRecordedCaches(kShared, 0.9), 2) << "the shared folder has two long_rope cases with a cache";
}

// The verification set golden/regen/rope_scalings.py writes from vLLM itself
// (every scaling, bf16, gptj, 131k positions): VT_ROPE_GOLDENS=DIR. Not in CI
// (it needs the vLLM venv); docs/ops/rope.md records the figures.
TEST(RopeScaling, RegeneratedVllmCaches) {
  const char* dir = std::getenv("VT_ROPE_GOLDENS");
  if (dir == nullptr || !fs::is_directory(dir)) {
    GTEST_SKIP() << "VT_ROPE_GOLDENS unset: golden/regen/rope_scalings.py writes that set from vLLM";
  }
  EXPECT_GT(CheckRecordedCaches(dir, 0.5), 0);
}


// ---- the long_context_rope adapter's mapping (harness/catalog/composite/long_context_rope.cpp)

GoldenCase Manifest(const Json& rope_parameters, vt::DType dt, std::vector<int64_t> pos_shape,
                    const std::vector<double>& positions, bool with_cache, std::optional<int64_t> max_model_len = {}) {
  GoldenCase g;
  g.dir = "/nonexistent/case";
  g.op = "long_context_rope";
  g.args = {{"head_size", 16}, {"max_position", 128}, {"is_neox_style", true}, {"rope_parameters", rope_parameters}};
  if (max_model_len) g.args["max_model_len"] = *max_model_len;
  const int64_t t = pos_shape.back();
  const std::vector<double> q(static_cast<std::size_t>(t * 32), 0.5), k(static_cast<std::size_t>(t * 16), 0.25);
  g.tensors["positions"] = TensorFromValues("positions", vt::DType::kI64, pos_shape, Role::kInput, positions);
  g.tensors["q_in"] = TensorFromValues("q_in", dt, {t, 32}, Role::kInput, q);
  g.tensors["k_in"] = TensorFromValues("k_in", dt, {t, 16}, Role::kInput, k);
  g.tensors["q_out"] = TensorFromValues("q_out", dt, {t, 32}, Role::kInput, q);
  g.tensors["k_out"] = TensorFromValues("k_out", dt, {t, 16}, Role::kInput, k);
  if (with_cache) {
    const RopeScaling s = ParseRopeScaling(rope_parameters, 16, 128, true, max_model_len);
    const int64_t rows = PlanCache(s).Rows();
    g.tensors["cos_sin_cache"] = TensorFromValues("cos_sin_cache", dt, {rows, s.rotary_dim}, Role::kInput,
                                                  std::vector<double>(static_cast<std::size_t>(rows * s.rotary_dim)));
  }
  return g;
}

const Json kYarnMrope = {{"rope_type", "yarn"}, {"rope_dim", 8}, {"factor", 4.0},
                         {"original_max_position_embeddings", 32}, {"mrope_section", {1, 1, 2}}};
const Json kLongRope = {{"rope_type", "longrope"}, {"rope_dim", 8}, {"original_max_position_embeddings", 32},
                        {"short_factor", {1.0, 1.1, 1.2, 1.3}}, {"long_factor", {2.0, 2.2, 2.4, 2.6}}};

TEST(LongContextRope, MropeSectionsAndLayout) {
  Json interleaved = kYarnMrope;
  interleaved["mrope_interleaved"] = true;
  const std::vector<double> pos = {0, 1, 31, 32, 127, 1, 2, 32, 33, 126, 2, 3, 33, 34, 125};
  for (const bool inter : {false, true}) {
    const GoldenMapping m = MapLongContextRope(Manifest(inter ? interleaved : kYarnMrope, vt::DType::kF32, {3, 5}, pos, true));
    EXPECT_EQ(m.run_op, "rope_from_cache");
    EXPECT_EQ(m.c.params.Str("mrope"), inter ? "interleaved" : "contiguous");
    EXPECT_EQ(m.c.params.Int("s0"), 1);
    EXPECT_EQ(m.c.params.Int("s2"), 2);
    EXPECT_EQ(m.c.Get("positions").Values(), pos);  // the whole cache: rows are positions
    EXPECT_EQ(m.c.Get("cache").shape, (std::vector<int64_t>{512, 8}));
    EXPECT_EQ(m.c.Get("q").shape, (std::vector<int64_t>{5, 2, 16}));
    EXPECT_EQ(m.compare.size(), 3u);  // q, k and the cache
  }
  // Text-only positions through an mrope layer: a plain lookup.
  const GoldenMapping m = MapLongContextRope(Manifest(interleaved, vt::DType::kF32, {5}, {0, 1, 31, 32, 127}, true));
  EXPECT_EQ(m.c.params.Str("mrope"), "none");
}

// Without a recorded cache only the rows read are built; Phi-3 in long mode
// reads row position + original max position; a bf16 model gets the cache
// rounded to bf16 (vLLM's cache.to(dtype)).
TEST(LongContextRope, RowsReadPhi3OffsetAndDtype) {
  const std::vector<double> pos = {0, 1, 31, 32, 127, 1};
  for (const int64_t mml : {32, 128}) {
    for (const vt::DType dt : {vt::DType::kF32, vt::DType::kBF16}) {
      const RopeScaling s = ParseRopeScaling(kLongRope, 16, 128, true, mml);
      const CachePlan plan = PlanCache(s);
      const GoldenMapping m = MapLongContextRope(Manifest(kLongRope, dt, {6}, pos, false, mml));
      const TensorData& cache = m.c.Get("cache");
      EXPECT_EQ(cache.dtype, dt);
      EXPECT_EQ(cache.shape, (std::vector<int64_t>{5, 8}));  // 5 distinct positions
      EXPECT_EQ(m.compare.size(), 2u);
      const std::vector<double> rows = m.c.Get("positions").Values(), values = cache.Values();
      std::vector<float> want(8);
      for (std::size_t j = 0; j < pos.size(); ++j) {
        FillRow(plan, CacheRow(s, static_cast<int64_t>(pos[j])), want.data());
        const int64_t r = static_cast<int64_t>(rows[j]);
        for (int64_t i = 0; i < 8; ++i) {
          const double w = oracle::RoundReal(dt == vt::DType::kF32 ? oracle::Fmt::kF32 : oracle::Fmt::kBF16, want[i]);
          EXPECT_EQ(values[static_cast<std::size_t>(r * 8 + i)], w) << "mml " << mml << " position " << pos[j];
        }
      }
    }
  }
  // With the recorded cache: the positions themselves are shifted in long mode.
  const GoldenMapping m = MapLongContextRope(Manifest(kLongRope, vt::DType::kF32, {3}, {0, 1, 127}, true, 128));
  EXPECT_EQ(m.c.Get("positions").Values(), (std::vector<double>{32, 33, 159}));
}

// Mixed NTK records upstream's inv_freq (torch's vectorized pow/exp are not
// correctly rounded): within the derived (2.5 ln(factor) + 5) u the cache is
// built from the recorded values; a frequency further off fails the case.
TEST(LongContextRope, MixedNtkRecordedInvFreq) {
  const Json mixed = {{"rope_type", "ntk"}, {"rope_dim", 8}, {"factor", 4.0}, {"mixed_b", 0.5}};
  const RopeScaling s = ParseRopeScaling(mixed, 16, 128, true, {});
  const std::vector<float> ours = PlanCache(s).segments.at(0).inv_freq;
  const double units = 2.5 * std::log(4.0) + 5.0;
  for (const double shift_u : {0.0, 3.0, units * 0.99, units * 1.5, 40.0}) {
    GoldenCase g = Manifest(mixed, vt::DType::kF32, {2}, {0, 127}, false);
    std::vector<double> rec(ours.begin(), ours.end());
    rec[2] = static_cast<double>(static_cast<float>(rec[2] * (1 + shift_u * 0x1p-23)));
    g.tensors["inv_freq"] = TensorFromValues("inv_freq", vt::DType::kF32, {4}, Role::kInput, rec);
    const GoldenMapping m = MapLongContextRope(g);
    ASSERT_EQ(m.side_checks.size(), 1u);
    const bool within = std::abs(rec[2] - ours[2]) <= units * 0x1p-23 * std::abs(rec[2]);
    EXPECT_EQ(m.side_checks[0].failure.empty(), within) << shift_u << " u: " << m.side_checks[0].line;
    EXPECT_EQ(shift_u < units, within) << shift_u;
    if (within) {  // the rows are built from the recorded frequencies
      CachePlan recorded = PlanCache(s);
      for (std::size_t i = 0; i < rec.size(); ++i) recorded.segments[0].inv_freq[i] = static_cast<float>(rec[i]);
      std::vector<float> row(8);
      FillRow(recorded, 127, row.data());
      const std::vector<double> cache = m.c.Get("cache").Values();  // rows: position 0, position 127
      for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(cache[8 + i], static_cast<double>(row[i])) << shift_u;
    }
  }
  // Every other scaling reproduces vLLM's bits: a recorded inv_freq one ulp
  // away fails.
  GoldenCase g = Manifest(kYarnMrope, vt::DType::kF32, {5}, {0, 1, 2, 3, 4}, false);
  const RopeScaling y = ParseRopeScaling(kYarnMrope, 16, 128, true, {});
  const CachePlan plan = PlanCache(y);
  std::vector<double> rec(plan.segments.at(0).inv_freq.begin(), plan.segments.at(0).inv_freq.end());
  rec[1] = std::nextafter(static_cast<float>(rec[1]), 1.0f);
  g.tensors["inv_freq"] = TensorFromValues("inv_freq", vt::DType::kF32, {4}, Role::kInput, rec);
  EXPECT_FALSE(MapLongContextRope(g).side_checks.at(0).failure.empty());
}

TEST(LongContextRope, Refusals) {
  EXPECT_THROW(MapLongContextRope(Manifest(kLongRope, vt::DType::kF32, {2}, {0, 128}, false, 128)), GoldenError);
  Json bad = kLongRope;
  bad["rope_type"] = "longrop";
  EXPECT_THROW(MapLongContextRope(Manifest(bad, vt::DType::kF32, {2}, {0, 1}, false)), GoldenError);
  bad["rope_type"] = "proportional";
  EXPECT_THROW(MapLongContextRope(Manifest(bad, vt::DType::kF32, {2}, {0, 1}, false)), GoldenUnsupported);
  EXPECT_THROW(MapLongContextRope(Manifest(kLongRope, vt::DType::kF16, {2}, {0, 1}, false)), GoldenUnsupported);
  GoldenCase g = Manifest(kLongRope, vt::DType::kF32, {2}, {0, 1}, false);
  g.args.erase("head_size");
  EXPECT_THROW(MapLongContextRope(g), GoldenError);
}

}  // namespace
}  // namespace vt::conform::rope
