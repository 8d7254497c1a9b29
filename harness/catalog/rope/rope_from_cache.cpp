// Catalog entry: rope_from_cache (vLLM's supplied-cache rotary path:
// RotaryEmbedding.forward_static, MRotaryEmbedding.forward_native,
// DeepseekScalingRotaryEmbedding's GPT-J pairing on strided q/k_pe views).
#include "harness/catalog/rope/rope_entry.h"
#include "oracles/rope/rope_from_cache.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("rope_from_cache");
    p.Set("dt", *gen::FloatOut());  // q, k and the cache share f32 or bf16
    p.Set("pos_dt", *gen::Pick(std::vector<std::string>{"i64", "i32"}));
    p.Set("T", *gen::Rows(tier));
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
    p.Set("hpad", *gen::Pick(std::vector<int64_t>{0, 0, 1, 16}));
    p.Set("tpad", *gen::Pick(std::vector<int64_t>{0, 0, 3, 64}));
    p.Set("scale", *gen::Scale());
    p.seed = *gen::Seed();
    return p;
  });
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
  c.Input("cache", dt, {p.Int("P"), p.Int("rot")}, Fill::Uniform(-1.0, 1.0));
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

// rotary_dim moved to `to(rot, D)` with the cache width following it, so only
// the rotary_dim condition breaks (1-D positions: mrope sections sum to rot/2).
ErrorCase RotaryError(const std::string& name, int64_t (*to)(int64_t rot, int64_t d)) {
  return ErrorCase(name, [=](Case& c) {
    if (IsMrope(c)) return false;
    const int64_t rot = to(c.params.Int("rot"), c.Get("q").shape[2]);
    c.params.Set("rot", rot);
    TensorData& cache = c.Get("cache");
    cache.shape[1] = rot;
    cache.SetContiguous();
    return true;
  }, "rotary_dim must be even");
}

// One position outside [0, P): the spec's kernel refused it mid-loop, after
// rows were rotated (H-3); here q and k must stay byte-unchanged.
ErrorCase PositionError(const std::string& name, bool negative) {
  return ErrorCase(name, [=](Case& c) {
    TensorData& pos = c.Get("positions");
    if (pos.Numel() == 0) return false;
    const int64_t at = static_cast<int64_t>(c.params.seed % static_cast<uint64_t>(pos.Numel()));
    pos.overrides.push_back({at, negative ? -1.0 : static_cast<double>(c.params.Int("P"))});
    return true;
  }, "positions must lie in [0, P");
}

// The same dtype for every f32/bf16 pair: the other one of the two.
ErrorCase OtherFloat(const std::string& tensor) {
  return ErrorCase(tensor + "_other_float", [=](Case& c) {
    TensorData* t = c.Find(tensor);
    if (t == nullptr) return false;
    t->dtype = t->dtype == vt::DType::kF32 ? vt::DType::kBF16 : vt::DType::kF32;
    t->fmt = oracle::FmtOf(t->dtype);
    return true;
  }, tensor + " must have q's dtype");
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

OpSpec Spec_rope_from_cache() {
  OpSpec s;
  s.name = "rope_from_cache";
  s.family = "rope";
  s.dtypes = "cpu: q [T,Hq,D], k [T,Hk,D] (optional) f32/bf16 in place, inner dim packed, token/head "
             "strides free (non-overlapping); positions [T] or [3,T] i32/i64; cache [P,rot] q's dtype";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = Outputs;
  const std::vector<vt::DType> kIndex = {vt::DType::kI32, vt::DType::kI64};
  s.contract = {{entry::Written("q", entry::kF32BF16, entry::kRowStrided, {3}),
                 entry::Written("k", entry::kF32BF16, entry::kRowStrided, {3}),
                 entry::Operand("positions", kIndex, entry::kContiguous, {1, 2}),
                 entry::Operand("cache", entry::kF32BF16, entry::kContiguous, {2})},
                {}};
  s.values.specials = {{"q"}, {"k"}, {"cache"}};
  s.errors = {
      OtherFloat("k"), OtherFloat("cache"),
      mut::Dim("k", 0, 1), mut::Dim("k", 2, 1), mut::Dim("k", 2, -1),
      mut::Dim("positions", 0, 1), mut::Dim("positions", 1, 1), mut::Dim("positions", 0, -1),
      mut::Dim("cache", 1, 1), mut::Dim("cache", 1, -2),
      ErrorCase("cache_no_rows", [](Case& c) {
        TensorData& cache = c.Get("cache");
        cache.shape[0] = 0;
        cache.SetContiguous();
        return true;
      }, "with P > 0"),
      RotaryError("rotary_dim_odd", [](int64_t rot, int64_t) { return rot - 1; }),
      RotaryError("rotary_dim_zero", [](int64_t, int64_t) { return int64_t{0}; }),
      RotaryError("rotary_dim_past_head", [](int64_t, int64_t d) { return d % 2 == 0 ? d + 2 : d + 1; }),
      ErrorCase("mrope_section_negative", [](Case& c) {
        if (!IsMrope(c)) return false;
        const int64_t s2 = c.params.Int("s2");  // s2 -> -1, s0 takes the difference: same sum
        c.params.Set("s2", -1);
        c.params.Set("s0", c.params.Int("s0") + s2 + 1);
        return true;
      }, "entries must be >= 0"),
      SectionError("mrope_section_sum_plus1", 1), SectionError("mrope_section_sum_minus1", -1),
      PositionError("position_past_cache", false), PositionError("position_negative", true),
      // A valid position moved by +-2^32 ([T] or [3,T]; i32 widened to i64):
      // a check that reads it through int32 would pass it.
      mut::IndexPast32Bits("positions", false, "positions must lie in [0, P"),
      mut::IndexPast32Bits("positions", true, "positions must lie in [0, P"),
  };
  s.claims = {
      SameAs("strided_equals_packed", "q/k with padded token/head strides == the same values packed",
             [](const Params& p) { return p.Int("hpad") > 0 || p.Int("tpad") > 0; }, "rope_from_cache",
             Packed, {{"q", "q"}, {"k", "k"}}),
      MropeEqualRows(),
  };
  return s;
}

}  // namespace vt::conform
