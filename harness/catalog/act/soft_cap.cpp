// Catalog entry: soft_cap (Gemma-2 logit / attention soft-capping: cap * tanh(x / cap)).
#include <cmath>

#include "harness/catalog/act/act_entry.h"
#include "oracles/act/soft_cap.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_soft_cap {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  gen::DrawRank(p, tier);
  // Gemma-2's final-logit (30) and attention (50) caps, plus small caps whose
  // f32 value and quotients are not "round".
  p.Set("cap", *gen::Pick(std::vector<double>{30.0, 50.0, 1.5, 0.25}));
  // Input stddev in units of cap: x / cap then spans the tanh knee (|x/cap| ~ 1)
  // with both the linear region near 0 and saturation (tanh -> +-1) in every
  // case. |x| <= ~20 * cap = 1000 stays finite in f16.
  p.Set("scale", *gen::Pick(std::vector<double>{0.5, 1.0, 2.0, 4.0}));
}

void Build(Case& c) { act::BuildRankUnary(c, Fill::Normal(0.0, c.params.Num("scale") * c.params.Num("cap"))); }

}  // namespace
}  // namespace local_soft_cap

OpSpec Spec_soft_cap() {
  using namespace local_soft_cap;
  OpSpec s = act::ActSpec({
      .name = "soft_cap",
      // The API takes cap as a double and narrows it to f32 itself.
      .calls = act::WithScalar("cap", vt::SoftCap, oracle::SoftCap<entry::Bounded>, oracle::SoftCap<float>),
      .rule = Bound("f32: x / cap (one IEEE op on given values: exact), tanhf (glibc, 2 ulps), "
                    "cap * that: running error bound, then one rounding to out "
                    "(docs/tolerance.md)"),
      .dtypes = "cpu: x f32/f16/bf16; out f32/bf16 (same shape, rank 1..4); f32(cap) > 0, finite",
      .width = "H",
      .draw = Draw,
      .build = Build,
  });
  act::SameShapeRules(s, entry::PositiveFinite("cap"),
                      {mut::DType("out", vt::DType::kU8), mut::DropDim("x"), mut::OtherDevice("out"),
                       mut::Arg("cap", 0.0), mut::Arg("cap", -1.0), mut::Arg("cap", NAN),
                       mut::Arg("cap", 1e-50),  // positive double, 0 as f32: x / 0
                       mut::Arg("cap", 1e39)});  // finite double, inf as f32
  // tanhf(x / cap) reaches +-1.0f only past |x / cap| ~ 9.01: a saturation
  // shortcut at 8 differs in between (cap as the kernel holds it, f32).
  s.values.edges = [](const Params& p) { return Symmetric("x", 8.0 * p.F32("cap"), 9.02 * p.F32("cap")); };
  // No other op evaluates tanh on a quotient, so the only bit-exact claim is
  // that elements are independent (SameShapeRules' FlatSlice).
  return s;
}

}  // namespace vt::conform
