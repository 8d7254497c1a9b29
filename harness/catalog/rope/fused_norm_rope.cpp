// Catalog entry: fused_norm_rope (DeepSeek MLA kv_a prologue: RMSNorm of the
// latent slice, decoupled RoPE of the trailing pe slice, from one merged row).
#include "harness/catalog/catalog.h"
#include "harness/catalog/rope/rope_entry.h"
#include "oracles/rope/fused_norm_rope.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_fused_norm_rope {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// dt: x, weight, outputs and cache share f32 or bf16.
void Draw(Params& p, Tier tier) {
  rope_entry::DrawTokens(p, tier);
  p.Set("off", *gen::Pick(std::vector<int64_t>{1, 16, 127, 512}));  // kv_lora_rank is 512
  p.Set("rot", *rope_entry::RotaryDim(tier));                         // qk_rope_head_dim is 64
  p.Set("neox", *gen::Flag());
  p.Set("P", *gen::Pick(std::vector<int64_t>{1, 7, 64}));
  p.Set("xpad", *gen::Pad());
  p.Set("lpad", *gen::Pad());
  p.Set("ppad", *gen::Pad());
  p.Set("gemma", *gen::Flag());
  p.Set("eps", *gen::Eps());
}

void Build(Case& c) {
  const Params& p = c.params;
  const vt::DType dt = p.DType("dt");
  const int64_t t = p.Int("T"), off = p.Int("off"), rot = p.Int("rot");
  c.Input("x", dt, {t, off + rot}, entry::Values(p)).SetRowPadding(p.Int("xpad"));
  c.Input("weight", dt, {off}, p.Flag("gemma") ? Fill::Uniform(-0.5, 0.5) : Fill::Uniform(0.5, 1.5));
  rope_entry::AddPositions(c, p.DType("pos_dt"), t, false, p.Int("P"));
  c.Input("cache", dt, {p.Int("P"), rot}, Fill::Uniform(-1.0, 1.0));
  c.Output("latent_out", dt, {t, off}).SetRowPadding(p.Int("lpad"));
  c.Output("pe_out", dt, {t, rot}).SetRowPadding(p.Int("ppad"));
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  vt::FusedNormRope(ctx, ws["latent_out"], ws["pe_out"], ws["x"], ws["weight"], ws["positions"], ws["cache"],
                    {p.F32("eps"), p.Flag("gemma")}, rope_entry::Args(p));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const Params& p = c.params;
  const TensorData& x = c.Get("x");
  auto o = oracle::FusedNormRope<S>(x.shape[0], p.Int("off"), x.Values(), entry::Vals(c, "weight"),
                                    p.Flag("gemma"), p.F32("eps"), entry::Vals(c, "positions"),
                                    entry::Vals(c, "cache"), rope_entry::Pairing(p, false));
  return {{"latent_out", o.latent}, {"pe_out", o.pe}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"latent_out", Bound("rms_norm of the latent slice: f32 sum of squares, /off, +eps, sqrt, "
                               "reciprocal, two products (+1 for gemma): running error bound")},
          {"pe_out", Bound("per pair two f32 products of given values (exact) and one add/sub: "
                           "running error bound")}};
}

// x's, pe_out's and the cache's widths follow rot (padded rows stay padded).
bool WidthsFollow(Case& c, int64_t rot) {
  for (const char* n : {"x", "pe_out", "cache"}) {
    TensorData& t = c.Get(n);
    const bool padded = !t.IsContiguous();
    t.shape[1] = std::string(n) == "x" ? c.params.Int("off") + rot : rot;
    t.SetContiguous();
    if (padded) t.SetRowPadding(1);
  }
  return true;
}

// rms_norm of the latent slice (packed copy) + rope_from_cache of the pe slice
// (one head, in place): the composite the fused op is defined to equal.
Claim Composite() {
  Claim cl;
  cl.name = "rms_norm_plus_rope_from_cache";
  cl.statement = "fused_norm_rope == rms_norm(x[:, :off]) + rope_from_cache(x[:, off:]), bit for bit";
  cl.check = [](const OpSpec& op, const Case& mine, const vt::ExecContext& ctx) {
    const Params& p = mine.params;
    const TensorData& x = mine.Get("x");
    const int64_t t = x.shape[0], off = p.Int("off"), rot = p.Int("rot");
    const auto xv = x.Values();
    std::vector<double> latent, pe;
    for (int64_t i = 0; i < t; ++i) {
      const auto row = xv.begin() + static_cast<std::ptrdiff_t>(i * (off + rot));
      latent.insert(latent.end(), row, row + off);
      pe.insert(pe.end(), row + off, row + off + rot);
    }
    Case norm;
    norm.params = Params("rms_norm");
    norm.params.Set("gemma", p.Int("gemma"));
    norm.params.Set("eps", p.Num("eps"));
    norm.params.seed = p.seed;
    norm.tensors = {TensorFromValues("x", x.dtype, {t, off}, Role::kInput, latent),
                    CopyTensor(mine.Get("weight"), "weight", Role::kInput),
                    CopyTensor(mine.Get("latent_out"), "out", Role::kOutput)};
    Case rope;
    rope.params = Params("rope_from_cache");
    rope.params.Set("rot", rot);
    rope.params.Set("neox", p.Int("neox"));
    rope.params.Set("mrope", "none");
    rope.params.seed = p.seed;
    rope.tensors = {TensorFromValues("q", x.dtype, {t, 1, rot}, Role::kInPlace, pe),
                    CopyTensor(mine.Get("positions"), "positions", Role::kInput),
                    CopyTensor(mine.Get("cache"), "cache", Role::kInput)};
    const Execution a = Execute(op, mine, ctx);
    const Execution n = Execute(*FindOp("rms_norm"), norm, ctx);
    const Execution r = Execute(*FindOp("rope_from_cache"), rope, ctx);
    for (const std::string* g : {&a.guard_error, &n.guard_error, &r.guard_error}) {
      if (!g->empty()) return ClaimOutcome::Violated(*g);
    }
    std::string d = DiffBytes(a.after.Get("latent_out"), n.after.Get("out"), /*any_nan=*/true);
    if (d.empty()) d = DiffBytes(a.after.Get("pe_out"), r.after.Get("q"), /*any_nan=*/true);
    return d.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated(d);
  };
  return cl;
}

}  // namespace
}  // namespace local_fused_norm_rope

OpSpec Spec_fused_norm_rope() {
  using namespace local_fused_norm_rope;
  OpSpec s = rope_entry::RopeSpec(
      {.name = "fused_norm_rope",
       .dtypes = "cpu: x [T,off+rot], weight [off], latent_out [T,off], pe_out [T,rot], cache [P,rot]: one dtype "
                 "f32/bf16, x and outputs with free row strides; positions [T] i32/i64",
       .draw = Draw, .build = Build, .run = Run, .truth = Eval<entry::Bounded>, .f32 = Eval<float>, .outputs = Outputs});
  s.contract = {{entry::Operand("x", entry::kF32BF16, entry::kRowStrided, {2}),
                 entry::Operand("weight", entry::kF32BF16, entry::kContiguous, {1}),
                 rope_entry::Positions(), rope_entry::Cache(),
                 entry::Written("latent_out", entry::kF32BF16, entry::kRowStrided, {2}),
                 entry::Written("pe_out", entry::kF32BF16, entry::kRowStrided, {2})},
                {entry::PositiveFinite("eps")}};
  s.values.specials = {{"x", true}, {"weight"}, {"cache"}};
  s.errors = {rope_entry::OtherFloat("weight", "x"), rope_entry::OtherFloat("cache", "x"),
              rope_entry::OtherFloat("latent_out", "x"), rope_entry::OtherFloat("pe_out", "x"),
              mut::Dim("x", 1, 1), mut::Dim("latent_out", 1, 1), mut::Dim("pe_out", 1, -1),
              mut::Dim("latent_out", 0, 1), mut::Dim("pe_out", 0, 1), mut::Dim("positions", 0, 1),
              mut::Dim("cache", 1, 2), rope_entry::CacheNoRows(),
              ErrorCase("latent_width0", [](Case& c) {
                // off = 0 everywhere it appears: only "weight non-empty" breaks.
                const int64_t rot = c.params.Int("rot");
                c.params.Set("off", 0);
                for (const auto& [n, w] : {std::pair<const char*, int64_t>{"x", rot}, {"weight", 0}, {"latent_out", 0}}) {
                  TensorData& t = c.Get(n);
                  const bool padded = !t.IsContiguous();
                  t.shape.back() = w;
                  t.SetContiguous();
                  if (padded) t.SetRowPadding(1);
                }
                return true;
              }, "> 0 elements")};
  seq::Append(s.errors, rope_entry::RotaryErrors(WidthsFollow));
  seq::Append(s.errors, rope_entry::CachePositionErrors(/*negative=*/false));
  s.claims = {Composite(), RowSlice({"x", "positions", "latent_out", "pe_out"})};
  return s;
}

}  // namespace vt::conform
