// Catalog entry: soft_cap (Gemma-2 logit / attention soft-capping: cap * tanh(x / cap)).
#include <cmath>

#include "harness/catalog/act/act_entry.h"
#include "oracles/act/soft_cap.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

using entry::Bounded;

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("soft_cap");
    p.Set("x", *gen::FloatIn());
    p.Set("out", *gen::FloatOut());
    p.Set("T", *gen::Rows(tier));
    p.Set("H", *gen::Width(tier));
    gen::DrawRank(p, tier);
    // Gemma-2's final-logit (30) and attention (50) caps, plus small caps whose
    // f32 value and quotients are not "round".
    p.Set("cap", *gen::Pick(std::vector<double>{30.0, 50.0, 1.5, 0.25}));
    // Input stddev in units of cap: x / cap then spans the tanh knee (|x/cap| ~ 1)
    // with both the linear region near 0 and saturation (tanh -> +-1) in every
    // case. |x| <= ~20 * cap = 1000 stays finite in f16.
    p.Set("scale", *gen::Pick(std::vector<double>{0.5, 1.0, 2.0, 4.0}));
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  c.Input("x", p.DType("x"), act::RankShape(p), Fill::Normal(0.0, p.Num("scale") * p.Num("cap")));
  c.Output("out", p.DType("out"), act::RankShape(p));
}

// The API takes cap as a double and narrows it to f32 itself.
void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::SoftCap(ctx, ws["out"], ws["x"], ws.params().Num("cap"));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  return {{"out", oracle::SoftCap<S>(c.Get("x").Values(), c.params.F32("cap"))}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Bound("f32: x / cap (one IEEE op on given values: exact), tanhf (glibc, 2 ulps), "
                        "cap * that: running error bound, then one rounding to out "
                        "(docs/tolerance.md)")}};
}

}  // namespace

OpSpec Spec_soft_cap() {
  OpSpec s;
  s.name = "soft_cap";
  s.family = "act";
  s.dtypes = "cpu: x f32/f16/bf16; out f32/bf16 (same shape, rank 1..4); f32(cap) > 0, finite";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = Outputs;
  s.contract = {{entry::Operand("x", entry::kFloatIn), entry::Written("out", entry::kFloatOut)}, {entry::PositiveFinite("cap")}};
  s.values.specials = {{"x"}};
  // tanhf(x / cap) reaches +-1.0f only past |x / cap| ~ 9.01: a saturation
  // shortcut at 8 differs in between (cap as the kernel holds it, f32).
  s.values.edges = [](const Params& p) { return Symmetric("x", 8.0 * p.F32("cap"), 9.02 * p.F32("cap")); };
  s.errors = {mut::DType("x", vt::DType::kI32),  mut::DType("out", vt::DType::kF16),
              mut::DType("out", vt::DType::kU8), mut::Dim("out", 0, 1),
              mut::AddDim("out"),                mut::DropDim("x"),
              mut::Strided("x"),                 mut::Strided("out"),
              mut::NullData("x"),                mut::NullData("out"),
              mut::OtherDevice("out"),           mut::Alias("out", "x"),
              mut::Arg("cap", 0.0),              mut::Arg("cap", -1.0),
              mut::Arg("cap", NAN),
              mut::Arg("cap", 1e-50),  // positive double, 0 as f32: x / 0
              mut::Arg("cap", 1e39)};  // finite double, inf as f32
  // No other op evaluates tanh on a quotient, so the only bit-exact claim is
  // that elements are independent (any flat sub-range alone gives the same bytes).
  s.claims = {FlatSlice({"x", "out"})};
  return s;
}

}  // namespace vt::conform
