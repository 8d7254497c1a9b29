// The long_context_rope golden adapter: vLLM's scaled rotary embeddings
// (get_rope(head_size, max_position, is_neox_style, rope_parameters, dtype)
// then forward_native(positions, q, k)) mapped onto rope_from_cache.
//  - The cos/sin cache is built here from rope_parameters (rope_scaling.h,
//    vLLM's f32 evaluation order) and cast to q's dtype, as vLLM casts it.
//  - When the manifest records the cache (an output of every captured case),
//    the whole cache is built and compared with it under the manifest's
//    atol/rtol: a formula slip shows there even at rows no position reads.
//    Otherwise only the rows the positions read are built (a 131k x 128
//    table is 64 MB), and positions are renumbered onto them.
//  - Phi-3 LongRoPE in long mode reads row position + original max position
//    (vLLM's index offset into its short|long cache): positions are mapped.
//  - Mixed NTK cases record upstream's inv_freq (torch's vectorized pow/exp
//    are not correctly rounded): it is checked against ours within a derived
//    bound and the cache is built from it (AdoptRecordedInvFreq).
//  - q/k are then rotated in place by rope_from_cache and compared with
//    q_out / k_out. With f32 q the rotation is bit-identical to vLLM's
//    forward_native on the same cache (x*c - y*s, y*c + x*s: two f32 products
//    and one f32 add, in both); with bf16, vLLM rounds after each torch op
//    and the kernel once at the store, which the manifest's bf16 tolerance
//    (1e-2 / 1.6e-2) absorbs.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "harness/catalog/claims.h"
#include "harness/catalog/composite/composite_adapters.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "harness/golden/rope_scaling.h"

namespace vt::conform {

namespace local_long_context_rope {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

[[noreturn]] void Refuse(const GoldenCase& g, const std::string& why) {
  throw GoldenError(g.dir + "/manifest.json", "long_context_rope: " + why);
}

int64_t RequiredInt(const GoldenCase& g, const char* key) {
  const std::optional<int64_t> v = g.ArgInt(key);
  if (!v) Refuse(g, std::string("args.") + key + " is required");
  return *v;
}

// How far upstream's inv_freq may lie from the harness's, in units of
// u = 2^-23 relative to the recorded value. Only mixed NTK records it: its
// frequencies go through torch's vectorized f32 pow and exp, which are
// within 1 ulp (not correctly rounded, and their bits depend on the SIMD
// path), so no builder can promise its bits. Ours are correctly rounded
// (<= 0.5 ulp), so per element, relative to the true values:
//   p = i^b        1.5u apart (0.5 + 1.0)
//   a * p          + 1u (one rounding on each side): 2.5u relative
//   exp(a p)       the argument's absolute gap is |a p| * 2.5u <= ln(factor) * 2.5u,
//                  which exp turns into that relative gap; + 1.5u for the two exps
//   inv / lambda   + 1u (one division on each side)
// Total (2.5 ln(factor) + 4) u to first order; the second-order terms are
// below 1e-6 of that, covered by one more u. Every other scaling's builder
// reproduces vLLM's bits (docs/ops/rope.md), so a recorded inv_freq is
// held to equality there.
double InvFreqAllowedUnits(const rope::RopeScaling& s) {
  if (s.kind != rope::Kind::kNtk || !s.mixed_b) return 0.0;
  return 2.5 * std::abs(std::log(s.factors[0])) + 5.0;
}

// Compares the harness's inv_freq with the recorded one within the derived
// bound, then builds the cache from the recorded values: past that bound the
// remaining steps (t * inv_freq, cos, sin, the rotation) are the ones the
// rest of the adapter checks at the manifest's tolerance, and a one-ulp
// frequency gap times a position near 131k would otherwise exceed it.
GoldenMapping::SideCheck AdoptRecordedInvFreq(const GoldenCase& g, const rope::RopeScaling& s,
                                              rope::CachePlan& plan) {
  const TensorData& rec = g.Get("inv_freq");
  if (plan.segments.size() != 1) Refuse(g, "inv_freq is recorded, but this scaling builds several caches");
  std::vector<float>& ours = plan.segments[0].inv_freq;
  const std::vector<double> want = rec.Values();
  if (want.size() != ours.size()) {
    Refuse(g, "inv_freq must hold rotary_dim / 2 = " + std::to_string(ours.size()) + " values");
  }
  const double units = InvFreqAllowedUnits(s);
  GoldenMapping::SideCheck c;
  c.golden = "inv_freq";
  double worst = 0;
  int64_t bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double gap = std::abs(static_cast<double>(ours[i]) - want[i]);
    const double allowed = units * 0x1p-23 * std::abs(want[i]);
    if (want[i] != 0) worst = std::max(worst, gap / (0x1p-23 * std::abs(want[i])));
    if (!(gap <= allowed)) {
      if (bad++ == 0) {
        c.failure = "element " + std::to_string(i) + ": recorded " + std::to_string(want[i]) + ", ours " +
                    std::to_string(ours[i]) + " (" + std::to_string(gap / (0x1p-23 * std::abs(want[i]))) +
                    " u apart, allowed " + std::to_string(units) + " u)";
      }
      continue;
    }
    ours[i] = static_cast<float>(want[i]);
  }
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%lld/%zu outside %.3g u (u = 2^-23 relative; derived in long_context_rope.cpp), max %.3g u; "
                "the cache is built from the recorded values",
                static_cast<long long>(bad), want.size(), units, worst);
  c.line = buf;
  return c;
}

}  // namespace
}  // namespace local_long_context_rope

GoldenMapping MapLongContextRope(const GoldenCase& g) {
  using namespace local_long_context_rope;
  const int64_t head = RequiredInt(g, "head_size");
  const int64_t max_position = RequiredInt(g, "max_position");
  const bool neox = g.ArgBool("is_neox_style", true);
  const auto rp = g.args.find("rope_parameters");
  if (rp == g.args.end() || !rp->is_object()) Refuse(g, "args.rope_parameters must be an object");
  rope::RopeScaling s;
  try {
    s = rope::ParseRopeScaling(*rp, head, max_position, neox, g.ArgInt("max_model_len"));
  } catch (const rope::RopeScalingUnsupported& e) {
    throw GoldenUnsupported(e.what());
  } catch (const rope::RopeScalingError& e) {
    Refuse(g, e.what());
  }

  const TensorData& q_in = g.Get(GoldenPick(g, {"q_in"}));
  const TensorData& pos_in = g.Get(GoldenPick(g, {"positions"}));
  GoldenPick(g, {"q_out"});
  const bool has_k = g.Has("k_in");
  if (has_k) GoldenPick(g, {"k_out"});
  if (q_in.dtype != vt::DType::kF32 && q_in.dtype != vt::DType::kBF16) {
    throw GoldenUnsupported("q of dtype " + DTypeKey(q_in) + " (rope_from_cache rotates f32 or bf16)");
  }
  if (pos_in.dtype != vt::DType::kI32 && pos_in.dtype != vt::DType::kI64) {
    Refuse(g, "positions must be i32 or i64");
  }
  const bool mrope_positions = pos_in.shape.size() == 2;
  if (pos_in.shape.empty() || pos_in.shape.size() > 2 || (mrope_positions && pos_in.shape[0] != 3)) {
    Refuse(g, "positions must be [T] or [3, T]");
  }
  if (mrope_positions && !s.Mrope()) Refuse(g, "[3, T] positions need rope_parameters.mrope_section");
  const int64_t t = pos_in.shape.back();
  const auto heads_of = [&](const TensorData& x, const char* name) {
    if (t == 0 || x.Numel() % (t * head) != 0) {
      Refuse(g, std::string(name) + " must hold T x heads x head_size elements (T = " + std::to_string(t) + ")");
    }
    return x.Numel() / (t * head);
  };
  const int64_t hq = heads_of(q_in, "q_in");
  const int64_t hk = has_k ? heads_of(g.Get("k_in"), "k_in") : 0;

  // The cache: all of it when the golden records it, else the rows read.
  rope::CachePlan plan = rope::PlanCache(s);
  std::optional<GoldenMapping::SideCheck> inv_check;
  if (g.Has("inv_freq")) inv_check = AdoptRecordedInvFreq(g, s, plan);
  const bool compare_cache = g.Has("cos_sin_cache");
  std::vector<double> rows_read;
  for (const double p : pos_in.Values()) {
    const int64_t row = rope::CacheRow(s, static_cast<int64_t>(p));
    if (p < 0 || row >= plan.Rows()) {
      Refuse(g, "position " + std::to_string(static_cast<int64_t>(p)) + " lies outside the " +
                    std::to_string(plan.Rows()) + "-row cache vLLM builds for this scaling");
    }
    rows_read.push_back(static_cast<double>(row));
  }
  const int64_t rot = s.rotary_dim;
  std::vector<double> cache_values;
  std::vector<double> positions = rows_read;
  if (compare_cache) {
    const std::vector<float> full = rope::BuildCache(plan);
    cache_values.assign(full.begin(), full.end());
  } else {
    std::vector<double> unique = rows_read;
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    std::map<double, double> index;
    std::vector<float> row(static_cast<std::size_t>(rot));
    for (std::size_t k = 0; k < unique.size(); ++k) {
      index[unique[k]] = static_cast<double>(k);
      rope::FillRow(plan, static_cast<int64_t>(unique[k]), row.data());
      cache_values.insert(cache_values.end(), row.begin(), row.end());
    }
    for (double& p : positions) p = index[p];
  }
  const int64_t cache_rows = static_cast<int64_t>(cache_values.size()) / rot;

  Params p("rope_from_cache");
  p.Set("dt", DTypeKey(q_in));
  p.Set("pos_dt", DTypeKey(pos_in));
  p.Set("T", t);
  p.Set("Hq", hq);
  p.Set("Hk", hk);
  p.Set("rot", rot);
  p.Set("D", head);
  p.Set("neox", neox ? 1 : 0);
  // Text-only (1-d) positions through MRotaryEmbedding are a plain lookup.
  p.Set("mrope", !mrope_positions ? "none" : s.mrope_interleaved ? "interleaved" : "contiguous");
  if (mrope_positions) {
    p.Set("s0", s.mrope_section[0]);
    p.Set("s1", s.mrope_section[1]);
    p.Set("s2", s.mrope_section[2]);
  }
  p.Set("P", cache_rows);
  p.Set("hpad", 0);
  p.Set("tpad", 0);
  p.Set("scale", 1.0);
  p.Set("scaling", std::string(rope::Name(s.kind)));

  GoldenMapping m;
  if (inv_check) m.side_checks.push_back(*inv_check);
  m.run_op = "rope_from_cache";
  m.c.params = p;
  TensorData q = GoldenTensor(g, "q_in", "q", Role::kInPlace);
  q.shape = {t, hq, head};
  q.SetContiguous();
  m.c.tensors.push_back(q);
  if (has_k) {
    TensorData k = GoldenTensor(g, "k_in", "k", Role::kInPlace);
    k.shape = {t, hk, head};
    k.SetContiguous();
    m.c.tensors.push_back(k);
  }
  m.c.tensors.push_back(TensorFromValues("positions", pos_in.dtype, pos_in.shape, Role::kInput, positions));
  // vLLM builds the cache in f32 and casts it to the model dtype (one rounding).
  m.c.tensors.push_back(TensorFromValues("cache", q_in.dtype, {cache_rows, rot}, Role::kInput, cache_values));
  m.compare = {{"q", "q_out"}};
  if (has_k) m.compare.push_back({"k", "k_out"});
  if (compare_cache) {
    m.compare.push_back({"cache", "cos_sin_cache"});
    // The cache is reproduced to the ulp (docs/ops/rope.md, "Rope scalings"):
    // the angles are bit-exact, torch's f32 cos/sin are within 1 ulp of ours,
    // and * mscale adds one rounding on each side: |d| <= 2^-22 |w| to first
    // order (2^-21 covers the second-order terms); a bf16 cache is that f32
    // cache rounded once on each side: at most one bf16 ulp, <= 2^-7 |w|. The
    // manifest's bf16 atol 1e-2 would be wider than most sin values near
    // position 0 (MISTRUSTED), and its f32 1e-5 is 100x looser than needed.
    const bool bf16 = q_in.dtype == vt::DType::kBF16;
    const double rtol = bf16 ? 0x1p-7 : 0x1p-21;
    if (g.atol && g.rtol && rtol <= *g.rtol) {
      m.tighter["cache"] = {0.0, rtol, bf16 ? "one bf16 ulp (the f32 caches agree to 2^-21)"
                                            : "torch's cos/sin ulp through * mscale (2^-21)"};
    }
  }
  return m;
}

// --- vt-fuzz --upstream: rope_from_cache's scaled caches as long_context_rope calls ---

namespace local_long_context_rope {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// The rope_parameters and max_position of a drawn scaling whose vLLM cache
// has exactly P rows (P a multiple of 4: linear and YaRN enlarge by 4).
std::pair<Json, int64_t> DrawnRopeParameters(const Params& p) {
  const std::string kind = p.Str("scaling");
  const int64_t rows = p.Int("P"), quarter = rows / 4;
  Json j = {{"rope_type", kind}, {"rope_theta", 10000.0}, {"rope_dim", p.Int("rot")}};
  int64_t max_position = rows;
  if (kind == "linear") {  // max_position * factor rows
    j["factor"] = 4.0;
    max_position = quarter;
  } else if (kind == "llama3") {  // max_position rows; the bands from the original length
    j["factor"] = 8.0;
    j["low_freq_factor"] = 1.0;
    j["high_freq_factor"] = 4.0;
    j["original_max_position_embeddings"] = quarter;
  } else if (kind == "yarn") {  // original length * factor rows
    j["factor"] = 4.0;
    j["original_max_position_embeddings"] = quarter;
  }
  return {j, max_position};
}

UpstreamCall UpstreamLongContextRope(const Case& c) {
  const Params& p = c.params;
  RequireElements(c, "q");
  if (!RopeFromCacheScaled(p)) {
    throw GoldenUnsupported("an arbitrary cache (long_context_rope's caches are the ones vLLM builds from "
                            "rope_parameters: the scaling draws)");
  }
  if (p.Has("values") && p.Str("values") == "special") {
    throw GoldenUnsupported("non-finite values in q, k or the cache (no golden can vouch for them, and the cache is "
                            "then not vLLM's)");
  }
  if (p.Str("mrope") != "none") throw GoldenUnsupported("mrope positions (the drawn scalings are 1-d)");
  if (p.Int("hpad") > 0 || p.Int("tpad") > 0) throw GoldenUnsupported("padded q/k strides (upstream takes q/k contiguous)");
  if (c.Find("k") == nullptr) throw GoldenUnsupported("no k (upstream's forward is called with k, as vt-golden regen does)");
  const auto [params, max_position] = DrawnRopeParameters(p);
  UpstreamCall u;
  u.op = "long_context_rope";
  u.args = {{"head_size", p.Int("D")},         {"max_position", max_position},
            {"is_neox_style", p.Flag("neox")}, {"rope_parameters", params},
            {"dtype", p.Str("dt")},            {"num_q_heads", p.Int("Hq")},
            {"num_kv_heads", p.Int("Hk")}};
  u.inputs = {UpstreamInput(c, "positions", "positions"), UpstreamInput(c, "q", "q_in"), UpstreamInput(c, "k", "k_in")};
  // the whole cache as an output: the adapter then builds all of it and holds
  // ours to vLLM's (and the drawn positions index it unchanged)
  u.outputs = {UpstreamOutput(c, "q", "q_out"), UpstreamOutput(c, "k", "k_out"),
               UpstreamOutput(c, "cache", "cos_sin_cache")};
  return u;
}

}  // namespace
}  // namespace local_long_context_rope

bool RopeFromCacheScaled(const Params& p) {
  using namespace local_long_context_rope;
  if (!p.Has("scaling")) return false;
  const std::string s = p.Str("scaling");
  return s == "default" || s == "linear" || s == "llama3" || s == "yarn";
}

std::vector<double> RopeFromCacheScaledCache(const Params& p) {
  using namespace local_long_context_rope;
  const auto [params, max_position] = DrawnRopeParameters(p);
  const rope::RopeScaling s = rope::ParseRopeScaling(params, p.Int("D"), max_position, p.Flag("neox"), std::nullopt);
  const std::vector<float> cache = rope::BuildCache(rope::PlanCache(s));
  return {cache.begin(), cache.end()};
}

UpstreamMap UpstreamMap_rope_from_cache() {
  using namespace local_long_context_rope;
  // scale only sizes q/k's values (the golden holds them)
  return {"rope_from_cache", "long_context_rope", UpstreamLongContextRope, {"scale"}};
}

}  // namespace vt::conform
