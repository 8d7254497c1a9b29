// Catalog entry: rope_cos_sin_cache (vLLM RotaryEmbedding._compute_cos_sin_cache
// rows for the given positions, at the spec's precision: double angle, f32 store).
#include "harness/catalog/rope/rope_entry.h"
#include "oracles/rope/rope_cos_sin_cache.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("rope_cos_sin_cache");
    p.Set("pos_dt", *gen::Pick(std::vector<std::string>{"i64", "i32"}));
    p.Set("T", *gen::Rows(tier));
    p.Set("rot", *rope_entry::RotaryDim(tier));
    rope_entry::DrawFrequency(p);
    rope_entry::DrawPositionBase(p);
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  rope_entry::AddPositions(c, p.DType("pos_dt"), p.Int("T"), false, p.Int("maxpos"), rope_entry::PositionBase(p));
  c.Output("cos_sin", vt::DType::kF32, {p.Int("T"), p.Int("rot")});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::RopeCosSinCache(ctx, ws["cos_sin"], ws["positions"], rope_entry::Args(ws.params()));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  return {{"cos_sin", oracle::RopeCosSinCache<S>(entry::Vals(c, "positions"), rope_entry::Freq(c.params))}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"cos_sin", Bound("cos/sin of the double angle pos * base^(-2i/rot) (Llama-3 rescaled), "
                            "rounded once to f32; the allowance covers the double evaluation "
                            "(a few double roundings relative to the angle, one libm ulp), so the "
                            "interval is the one or two f32 values next to the true value")}};
}

ErrorCase RotaryError(const std::string& name, int64_t (*to)(int64_t rot)) {
  return ErrorCase(name, [=](Case& c) {
    const int64_t rot = to(c.params.Int("rot"));
    c.params.Set("rot", rot);
    TensorData& cs = c.Get("cos_sin");
    cs.shape[1] = rot;
    cs.SetContiguous();
    return true;
  }, "rotary_dim must be even");
}

}  // namespace

OpSpec Spec_rope_cos_sin_cache() {
  OpSpec s;
  s.name = "rope_cos_sin_cache";
  s.family = "rope";
  s.dtypes = "cpu: cos_sin [T,rot] f32 contiguous; positions [T] i32/i64";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = Outputs;
  s.contract = {{entry::Written("cos_sin", entry::kF32, entry::kContiguous, {2}),
                 entry::Operand("positions", {vt::DType::kI32, vt::DType::kI64}, entry::kContiguous, {1})},
                rope_entry::FrequencyScalars()};
  s.errors = {mut::Dim("cos_sin", 1, 2), mut::Dim("cos_sin", 1, -2), mut::Dim("positions", 0, 1),
              mut::Dim("cos_sin", 0, 1),
              RotaryError("rotary_dim_odd", [](int64_t rot) { return rot - 1; }),
              RotaryError("rotary_dim_zero", [](int64_t) { return int64_t{0}; })};
  s.claims = {RowSlice({"positions", "cos_sin"})};
  // cos/sin are bounded by 1 and many are near 0 at position 0: the trust rule's
  // zero fraction stays the default (a position-0 row is half ones, half zeros).
  return s;
}

}  // namespace vt::conform
