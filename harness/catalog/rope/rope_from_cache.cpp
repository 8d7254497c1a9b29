// Catalog entry: rope_from_cache (vLLM's supplied-cache rotary path:
// RotaryEmbedding.forward_static, MRotaryEmbedding.forward_native,
// DeepseekScalingRotaryEmbedding's GPT-J pairing on strided q/k_pe views).
#include "harness/catalog/composite/composite_adapters.h"
#include "harness/catalog/rope/rope_entry.h"
#include "oracles/rope/rope_from_cache.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_rope_from_cache {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// dt: q, k and the cache share f32 or bf16.
void Draw(Params& p, Tier tier) {
  rope_entry::DrawTokens(p, tier);
  p.Set("Hq", *gen::Heads(tier));
  p.Set("Hk", *gen::Pick(std::vector<int64_t>{0, 1, 2, 4}));  // 0: no k
  const int64_t rot = *rope_entry::RotaryDim(tier);
  p.Set("rot", rot);
  p.Set("D", *rope_entry::HeadDim(rot));
  p.Set("neox", *gen::Flag());
  const std::string mrope = *gen::Pick(std::vector<std::string>{"none", "none", "contiguous", "interleaved"});
  p.Set("mrope", mrope);
  if (mrope != "none") rope_entry::DrawSections(p, rot / 2);
  p.Set("P", *gen::Pick(std::vector<int64_t>{1, 7, 64, 300}));
  // The cache: arbitrary values ("none") or one vLLM builds for a rope
  // scaling (long_context_rope.cpp; vt-fuzz --upstream holds these to vLLM's
  // long_context_rope), P rows a multiple of 4.
  const std::string scaling = *gen::Pick(std::vector<std::string>{"none", "none", "default", "linear", "llama3", "yarn"});
  p.Set("scaling", scaling);
  if (scaling != "none") p.Set("P", *gen::Pick(std::vector<int64_t>{8, 32, 300}));
  p.Set("hpad", *gen::Pick(std::vector<int64_t>{0, 0, 1, 16}));
  p.Set("tpad", *gen::Pick(std::vector<int64_t>{0, 0, 3, 64}));
}

void Build(Case& c) {
  const Params& p = c.params;
  const vt::DType dt = p.DType("dt");
  const int64_t t = p.Int("T"), d = p.Int("D"), hpad = p.Int("hpad"), tpad = p.Int("tpad");
  rope_entry::AddRotated(c, "q", dt, t, p.Int("Hq"), d, hpad, tpad, Role::kInPlace, entry::Values(p));
  if (p.Int("Hk") > 0) {
    rope_entry::AddRotated(c, "k", dt, t, p.Int("Hk"), d, hpad, tpad, Role::kInPlace, entry::Values(p));
  }
  rope_entry::AddPositions(c, p.DType("pos_dt"), t, p.Str("mrope") != "none", p.Int("P"));
  // Any values are a valid cache; cos/sin-like magnitudes keep the products typical.
  TensorData& cache = c.Input("cache", dt, {p.Int("P"), p.Int("rot")}, Fill::Uniform(-1.0, 1.0));
  if (RopeFromCacheScaled(p)) {  // vLLM's f32 cache, rounded once to dt (as vLLM casts it)
    const std::vector<double> v = RopeFromCacheScaledCache(p);
    cache.fill = Fill::Const(0.0);
    for (std::size_t i = 0; i < v.size(); ++i) cache.overrides.emplace_back(static_cast<int64_t>(i), v[i]);
  }
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::RopeFromCache(ctx, ws["q"], ws.Find("k"), ws["positions"], ws["cache"], rope_entry::Args(ws.params()));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const Params& p = c.params;
  const oracle::RopePairing pr = rope_entry::Pairing(p, p.Str("mrope") != "none");
  const auto pos = entry::Vals(c, "positions");
  const auto cache = entry::Vals(c, "cache");
  entry::Outs<S> o;
  for (const char* name : {"q", "k"}) {
    const TensorData* x = c.Find(name);
    if (x == nullptr) continue;
    o[name] = oracle::RopeFromCache<S>(x->shape[0], x->shape[1], x->shape[2], x->Values(), pos, cache, pr);
  }
  return o;
}

std::vector<OutputSpec> Outputs(const Case& c) {
  const std::string why =
      "per pair two f32 products of given values (exact) and one f32 add/sub: running error bound "
      "(docs/tolerance.md); dims past rotary_dim are copied (exact)";
  std::vector<OutputSpec> o = {{"q", Bound(why)}};
  if (c.Find("k") != nullptr) o.push_back({"k", Bound(why)});
  return o;
}

bool IsMrope(const Case& c) { return c.params.Str("mrope") != "none"; }

// The mrope sections' sum moved off rot/2 by delta, applied to the largest
// entry so that every entry stays >= 0 (one condition broken).
ErrorCase SectionError(const std::string& name, int64_t delta) {
  return ErrorCase(name, [=](Case& c) {
    if (!IsMrope(c)) return false;
    std::string key = "s0";
    for (const char* k : {"s1", "s2"}) {
      if (c.params.Int(k) > c.params.Int(key)) key = k;
    }
    c.params.Set(key, c.params.Int(key) + delta);
    return true;
  }, "sum to rotary_dim");
}

// The case with every position row equal to row 0 (mrope only), and the same
// case with plain [T] positions: with one position per token every axis reads
// the same cache row, so the sections cannot matter.
Claim MropeEqualRows() {
  Claim cl;
  cl.name = "mrope_equal_rows";
  cl.statement = "mrope with all three position rows equal == plain [T] positions";
  cl.applies = [](const Params& p) { return p.Str("mrope") != "none"; };
  cl.check = [](const OpSpec& op, const Case& mine, const vt::ExecContext& ctx) {
    Case equal = mine;
    TensorData& pos = equal.Get("positions");
    const int64_t t = pos.shape[1];
    auto v = pos.Values();
    for (int64_t i = 0; i < t; ++i) v[static_cast<size_t>(t + i)] = v[static_cast<size_t>(2 * t + i)] = v[static_cast<size_t>(i)];
    pos.SetValues(v);
    Case plain = equal;
    plain.params.Set("mrope", "none");
    plain.Get("positions") = TensorFromValues("positions", pos.dtype, {t}, Role::kInput,
                                              std::vector<double>(v.begin(), v.begin() + t));
    const Execution a = Execute(op, equal, ctx), b = Execute(op, plain, ctx);
    if (!a.guard_error.empty()) return ClaimOutcome::Violated(a.guard_error);
    if (!b.guard_error.empty()) return ClaimOutcome::Violated(b.guard_error);
    for (const char* n : {"q", "k"}) {
      if (a.after.Find(n) == nullptr) continue;
      const std::string d = DiffBytes(a.after.Get(n), b.after.Get(n), /*any_nan=*/true);
      if (!d.empty()) return ClaimOutcome::Violated(d);
    }
    return ClaimOutcome::Holds();
  };
  return cl;
}

Case Packed(const Case& c) {
  Case d = c;
  d.params.Set("hpad", 0);
  d.params.Set("tpad", 0);
  for (const char* n : {"q", "k"}) {
    if (c.Find(n) != nullptr) d.Get(n) = CopyTensor(c.Get(n), n, Role::kInPlace);
  }
  return d;
}

}  // namespace
}  // namespace local_rope_from_cache

OpSpec Spec_rope_from_cache() {
  using namespace local_rope_from_cache;
  OpSpec s = rope_entry::RopeSpec(
      {.name = "rope_from_cache",
       .dtypes = "cpu: q [T,Hq,D], k [T,Hk,D] (optional) f32/bf16 in place, inner dim packed, token/head "
                 "strides free (non-overlapping); positions [T] or [3,T] i32/i64; cache [P,rot] q's dtype",
       .draw = Draw, .build = Build, .run = Run, .truth = Eval<entry::Bounded>, .f32 = Eval<float>, .outputs = Outputs});
  s.contract = {{entry::Written("q", entry::kF32BF16, entry::kRowStrided, {3}),
                 entry::Written("k", entry::kF32BF16, entry::kRowStrided, {3}), rope_entry::Positions({1, 2}),
                 rope_entry::Cache()},
                {}};
  s.values.specials = {{"q"}, {"k"}, {"cache"}};
  s.errors = {rope_entry::OtherFloat("k", "q"), rope_entry::OtherFloat("cache", "q"),
              mut::Dim("k", 0, 1), mut::Dim("k", 2, 1), mut::Dim("k", 2, -1),
              mut::Dim("positions", 0, 1), mut::Dim("positions", 1, 1), mut::Dim("positions", 0, -1),
              mut::Dim("cache", 1, 1), mut::Dim("cache", 1, -2), rope_entry::CacheNoRows()};
  // 1-D positions only for rotary_dim (mrope sections sum to rot/2); the
  // cache width follows it.
  const rope_entry::RotaryFollow follow = [](Case& c, int64_t rot) {
    return !IsMrope(c) && rope_entry::WidthFollows("cache")(c, rot);
  };
  seq::Append(s.errors, rope_entry::RotaryErrors(follow, [](const Case& c) { return c.Get("q").shape[2]; }));
  s.errors.push_back(ErrorCase("mrope_section_negative", [](Case& c) {
    if (!IsMrope(c)) return false;
    const int64_t s2 = c.params.Int("s2");  // s2 -> -1, s0 takes the difference: same sum
    c.params.Set("s2", -1);
    c.params.Set("s0", c.params.Int("s0") + s2 + 1);
    return true;
  }, "entries must be >= 0"));
  seq::Append(s.errors, {SectionError("mrope_section_sum_plus1", 1), SectionError("mrope_section_sum_minus1", -1)});
  seq::Append(s.errors, rope_entry::CachePositionErrors(/*negative=*/true));
  s.claims = {
      SameAs("strided_equals_packed", "q/k with padded token/head strides == the same values packed",
             [](const Params& p) { return p.Int("hpad") > 0 || p.Int("tpad") > 0; }, "rope_from_cache",
             Packed, {{"q", "q"}, {"k", "k"}}),
      MropeEqualRows(),
  };
  return s;
}

}  // namespace vt::conform
