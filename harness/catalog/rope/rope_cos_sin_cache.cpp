// Catalog entry: rope_cos_sin_cache (vLLM RotaryEmbedding._compute_cos_sin_cache
// rows for the given positions, at the spec's precision: double angle, f32 store).
#include "harness/catalog/rope/rope_entry.h"
#include "oracles/rope/rope_cos_sin_cache.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_rope_cos_sin_cache {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  p.Set("pos_dt", *gen::Pick(std::vector<std::string>{"i64", "i32"}));
  p.Set("T", *gen::Rows(tier));
  p.Set("rot", *rope_entry::RotaryDim(tier));
  rope_entry::DrawFrequency(p);
  rope_entry::DrawPositionBase(p);
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

}  // namespace
}  // namespace local_rope_cos_sin_cache

OpSpec Spec_rope_cos_sin_cache() {
  using namespace local_rope_cos_sin_cache;
  OpSpec s = rope_entry::RopeSpec({.name = "rope_cos_sin_cache",
                                   .dtypes = "cpu: cos_sin [T,rot] f32 contiguous; positions [T] i32/i64",
                                   .draw = Draw, .build = Build, .run = Run, .truth = Eval<entry::Bounded>,
                                   .f32 = Eval<float>, .outputs = Outputs}, /*scale=*/false);
  s.contract = {{entry::Written("cos_sin", entry::kF32, entry::kContiguous, {2}), rope_entry::Positions()},
                rope_entry::FrequencyScalars()};
  s.errors = {mut::Dim("cos_sin", 1, 2), mut::Dim("cos_sin", 1, -2), mut::Dim("positions", 0, 1),
              mut::Dim("cos_sin", 0, 1)};
  seq::Append(s.errors, rope_entry::RotaryErrors(rope_entry::WidthFollows("cos_sin")));
  s.claims = {RowSlice({"positions", "cos_sin"})};
  // cos/sin are bounded by 1 and many are near 0 at position 0: the trust rule's
  // zero fraction stays the default (a position-0 row is half ones, half zeros).
  return s;
}

}  // namespace vt::conform
