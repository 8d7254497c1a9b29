// Catalog entry: rope_neox (vLLM get_rope(..., is_neox_style=True):
// RotaryEmbedding / Llama3RotaryEmbedding, applied in place to q and k).
#include <algorithm>

#include "harness/catalog/catalog.h"
#include "harness/catalog/rope/rope_entry.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "oracles/rope/rope_neox.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_rope_neox {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// dt: q and k share f32 or bf16.
void Draw(Params& p, Tier tier) {
  rope_entry::DrawTokens(p, tier);
  p.Set("Hq", *gen::Heads(tier));
  p.Set("Hk", *gen::Heads(tier));
  const int64_t rot = *rope_entry::RotaryDim(tier);
  p.Set("rot", rot);
  p.Set("D", *rope_entry::HeadDim(rot));
  rope_entry::DrawFrequency(p);
  rope_entry::DrawPositionBase(p);
}

void Build(Case& c) {
  const Params& p = c.params;
  const vt::DType dt = p.DType("dt");
  const int64_t t = p.Int("T"), d = p.Int("D");
  c.Add("q", dt, {t, p.Int("Hq"), d}, Role::kInPlace, entry::Values(p));
  c.Add("k", dt, {t, p.Int("Hk"), d}, Role::kInPlace, entry::Values(p));
  rope_entry::AddPositions(c, p.DType("pos_dt"), t, false, p.Int("maxpos"), rope_entry::PositionBase(p));
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::RopeNeox(ctx, ws["q"], ws["k"], ws["positions"], rope_entry::Args(ws.params()));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const oracle::RopeFreq f = rope_entry::Freq(c.params);
  const auto pos = entry::Vals(c, "positions");
  entry::Outs<S> o;
  for (const char* name : {"q", "k"}) {
    const TensorData& x = c.Get(name);
    o[name] = oracle::RopeNeox<S>(x.shape[0], x.shape[1], x.shape[2], x.Values(), pos, f);
  }
  return o;
}

std::vector<OutputSpec> Outputs(const Case&) {
  const std::string why =
      "cos/sin: the double angle rounded to f32 (an explicit store; the allowance for the double "
      "evaluation widens it by at most one f32 step); then two f32 products and one add/sub: "
      "running error bound (docs/tolerance.md); dims past rotary_dim unchanged (exact)";
  return {{"q", Bound(why)}, {"k", Bound(why)}};
}

// rope_cos_sin_cache of the case's positions (row t = token t's cos|sin), then
// rope_from_cache with positions 0..T-1 reading those rows: the cache path
// must give rope_neox's bytes (the reason the cache exists). f32 only: a
// bf16 q needs a bf16 cache, whose rounded cos/sin are another definition.
Claim CacheEqualsInline() {
  Claim cl;
  cl.name = "cache_equals_inline";
  cl.statement = "rope_cos_sin_cache + rope_from_cache (NeoX) == rope_neox, bit for bit (f32)";
  cl.applies = [](const Params& p) { return p.Str("dt") == "f32" && p.Int("T") >= 1; };
  cl.check = [](const OpSpec& op, const Case& mine, const vt::ExecContext& ctx) {
    const Params& p = mine.params;
    const TensorData& pos = mine.Get("positions");
    const int64_t t = pos.shape[0];
    Case cs;
    cs.params = Params("rope_cos_sin_cache");
    for (const char* k : {"rot", "base", "llama3_scaling_factor", "llama3_low_freq_factor",
                          "llama3_high_freq_factor", "llama3_orig_max_position"}) {
      cs.params.Set(k, p.args.at(k));
    }
    cs.params.seed = p.seed;
    cs.tensors = {CopyTensor(pos, "positions", Role::kInput)};
    MaterializeTensor(cs.Output("cos_sin", vt::DType::kF32, {t, p.Int("rot")}), p.seed);
    const Execution cache = Execute(*FindOp("rope_cos_sin_cache"), cs, ctx);
    Case fc;
    fc.params = Params("rope_from_cache");
    fc.params.Set("rot", p.Int("rot"));
    fc.params.Set("neox", 1);
    fc.params.Set("mrope", "none");
    fc.params.seed = p.seed;
    std::vector<double> rows(static_cast<size_t>(t));
    for (int64_t i = 0; i < t; ++i) rows[static_cast<size_t>(i)] = static_cast<double>(i);
    fc.tensors = {CopyTensor(mine.Get("q"), "q", Role::kInPlace), CopyTensor(mine.Get("k"), "k", Role::kInPlace),
                  TensorFromValues("positions", vt::DType::kI64, {t}, Role::kInput, rows),
                  CopyTensor(cache.after.Get("cos_sin"), "cache", Role::kInput)};
    const Execution a = Execute(op, mine, ctx);
    const Execution b = Execute(*FindOp("rope_from_cache"), fc, ctx);
    for (const std::string* g : {&cache.guard_error, &a.guard_error, &b.guard_error}) {
      if (!g->empty()) return ClaimOutcome::Violated(*g);
    }
    for (const char* n : {"q", "k"}) {
      const std::string d = DiffBytes(a.after.Get(n), b.after.Get(n), /*any_nan=*/true);
      if (!d.empty()) return ClaimOutcome::Violated("rope_neox vs cache path: " + d);
    }
    return ClaimOutcome::Holds();
  };
  return cl;
}

}  // namespace
}  // namespace local_rope_neox

// vLLM `rope` goldens (get_rope(...).forward_native on q [T, Hq*D], k [T, Hk*D]):
// NeoX runs rope_neox; GPT-J pairing (is_neox_style=False) runs rope_from_cache
// on a cache of the golden's positions built from the same definition
// (rope_cos_sin_cache's rows, rounded to q's dtype as vLLM's cache .to(dtype)).
GoldenMapping GoldenRope(const GoldenCase& g) {
  using namespace local_rope_neox;
  const std::string call = g.ArgStr("get_rope_call", "");
  if (call.find("rope_type") != std::string::npos && call.find("'rope_type': 'default'") == std::string::npos) {
    throw GoldenUnsupported("a scaled rope_type (the long_context_rope path handles scalings)");
  }
  const bool neox = g.ArgBool("is_neox_style", call.find("is_neox_style=False") == std::string::npos);
  const std::optional<int64_t> rot = g.ArgInt("rotary_dim");
  const std::optional<int64_t> d = g.ArgInt("head_size");
  if (!rot || !d || *d <= 0) throw GoldenError(g.dir + "/manifest.json", "rope needs integer rotary_dim and head_size");
  TensorData q = AsRows(GoldenTensor(g, "q_in", "q", Role::kInPlace));
  TensorData k = AsRows(GoldenTensor(g, "k_in", "k", Role::kInPlace));
  const int64_t t = q.shape[0];
  for (TensorData* x : {&q, &k}) {
    if (x->shape[1] % *d != 0) throw GoldenError(g.dir + "/manifest.json", x->name + " width is not a multiple of head_size");
    x->shape = {t, x->shape[1] / *d, *d};
    x->SetContiguous();
  }
  const TensorData pos = GoldenTensor(g, "positions", "positions", Role::kInput);
  GoldenMapping m;
  Params p(neox ? "rope_neox" : "rope_from_cache");
  p.Set("dt", DTypeKey(q));
  p.Set("pos_dt", DTypeKey(pos));
  p.Set("T", t);
  p.Set("Hq", q.shape[1]);
  p.Set("Hk", k.shape[1]);
  p.Set("rot", *rot);
  p.Set("D", *d);
  p.Set("base", g.ArgNum("base", 10000.0));
  p.Set("llama3_scaling_factor", 0.0);
  // Inert without a scaling factor; a manifest vt-fuzz --upstream writes
  // carries the drawn ones (a capture does not: the defaults).
  p.Set("llama3_low_freq_factor", g.ArgNum("llama3_low_freq_factor", 1.0));
  p.Set("llama3_high_freq_factor", g.ArgNum("llama3_high_freq_factor", 4.0));
  p.Set("llama3_orig_max_position", g.ArgNum("llama3_orig_max_position", 8192.0));
  m.c.tensors = {q, k};
  if (neox) {
    m.c.tensors.push_back(pos);
  } else {
    // Row i of the cache holds token i's cos|sin; positions 0..T-1 read them.
    const oracle::RopeFreq f = rope_entry::Freq(p);
    const auto pv = pos.Values();
    std::vector<double> cache, rows;
    for (int64_t i = 0; i < t; ++i) {
      std::vector<double> c, s;
      oracle::RopeTokenCosSin<double>(pv[static_cast<size_t>(i)], f, c, s);
      cache.insert(cache.end(), c.begin(), c.end());
      cache.insert(cache.end(), s.begin(), s.end());
      rows.push_back(static_cast<double>(i));
    }
    p.Set("neox", 0);
    p.Set("mrope", "none");
    p.Set("P", t);
    p.Set("hpad", 0);
    p.Set("tpad", 0);
    m.c.tensors.push_back(TensorFromValues("positions", vt::DType::kI64, {t}, Role::kInput, rows));
    m.c.tensors.push_back(TensorFromValues("cache", q.dtype, {t, *rot}, Role::kInput, cache));
    m.run_op = "rope_from_cache";
  }
  m.c.params = p;
  m.compare = {{"q", "q_out"}, {"k", "k_out"}};
  return m;
}

namespace local_rope_neox {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// Past this many positions vLLM's f32 angles (t * inv_freq, inv_freq from an
// f32 pow) drift from the kernel's double ones by (3 + ln base) u32 p
// inv_freq: at p = 2^12 and base 5e5 about 0.4% of a pair's norm, which the
// live tolerance (vt_regen/live_more.py) absorbs while still judging the
// outputs; at 131072 it would be 12% (the regenerated goldens cap their
// positions for the same reason).
constexpr double kRopeMaxPosition = 4096;

// The inverse of GoldenRope (vt-fuzz --upstream), NeoX pairing, no scaling:
// get_rope(head_size D, max_position, rope_type default, rope_theta base,
// rotary dim rot).forward_native on q [T, Hq*D], k [T, Hk*D].
UpstreamCall UpstreamRope(const Case& c) {
  const Params& p = c.params;
  RequireElements(c, "q");
  if (p.Num("llama3_scaling_factor") != 0.0) {
    throw GoldenUnsupported("a llama3 scaling (the rope runner key is rope_type default; scalings are "
                            "long_context_rope's)");
  }
  // bf16 q/k: vLLM rotates with a bf16 cache in bf16 arithmetic, the kernel
  // with f32 cos/sin in f32 - the live tolerance measures the difference
  // (vt_regen/live_third.py rope_bf16_tol).
  const auto pos = c.Get("positions").Values();
  double hi = 0;
  for (double v : pos) {
    if (v < 0 || v >= kRopeMaxPosition) {
      throw GoldenUnsupported("a position outside [0, 4096) (vLLM's cache has max_position rows, and its f32 "
                              "angles drift from the definition with the position)");
    }
    hi = std::max(hi, v);
  }
  UpstreamCall u;
  u.op = "rope";
  u.args = {{"base", p.Num("base")},
            {"rotary_dim", p.Int("rot")},
            {"head_size", p.Int("D")},
            {"num_q_heads", p.Int("Hq")},
            {"num_kv_heads", p.Int("Hk")},
            {"is_neox_style", true},
            {"max_position", static_cast<int64_t>(hi) + 1},
            {"llama3_low_freq_factor", p.Num("llama3_low_freq_factor")},
            {"llama3_high_freq_factor", p.Num("llama3_high_freq_factor")},
            {"llama3_orig_max_position", p.Num("llama3_orig_max_position")}};
  TensorData q = UpstreamInput(c, "q", "q_in"), k = UpstreamInput(c, "k", "k_in");
  TensorData qo = UpstreamOutput(c, "q", "q_out"), ko = UpstreamOutput(c, "k", "k_out");
  for (TensorData* t : {&q, &k, &qo, &ko}) {  // vLLM's [T, H * D]
    t->shape = {t->shape[0], t->shape[1] * t->shape[2]};
    t->SetContiguous();
  }
  u.inputs = {UpstreamInput(c, "positions", "positions"), q, k};
  u.outputs = {qo, ko};
  return u;
}

}  // namespace
}  // namespace local_rope_neox

OpSpec Spec_rope_neox() {
  using namespace local_rope_neox;
  OpSpec s = rope_entry::RopeSpec(
      {.name = "rope_neox",
       .dtypes = "cpu: q [T,Hq,D], k [T,Hk,D] f32/bf16 (one dtype) in place, contiguous; positions [T] i32/i64",
       .draw = Draw, .build = Build, .run = Run, .truth = Eval<entry::Bounded>, .f32 = Eval<float>, .outputs = Outputs});
  s.contract = {{entry::Written("q", entry::kF32BF16, entry::kContiguous, {3}),
                 entry::Written("k", entry::kF32BF16, entry::kContiguous, {3}), rope_entry::Positions()},
                rope_entry::FrequencyScalars()};
  s.values.specials = {{"q"}, {"k"}};
  s.errors = {mut::Dim("k", 0, 1), mut::Dim("k", 2, 1), mut::Dim("positions", 0, 1), rope_entry::OtherFloat("k", "q")};
  seq::Append(s.errors, rope_entry::RotaryErrors([](Case&, int64_t) { return true; },
                                                 [](const Case& c) { return c.Get("q").shape[2]; }));
  s.claims = {CacheEqualsInline(), RowSlice({"q", "k", "positions"})};
  s.goldens = {{"rope", GoldenRope}};
  return s;
}

UpstreamMap UpstreamMap_rope_neox() {
  using namespace local_rope_neox;
  return {"rope_neox", "rope", UpstreamRope};
}

}  // namespace vt::conform
