#include "harness/catalog/gdn/gdn_gate_entry.h"

#include "oracles/gdn/gdn_g_beta.h"

namespace vt::conform::gdn_gate {

void DrawGate(Params& p, Tier tier) {
  p.Set("ab", *gen::Pick(std::vector<std::string>{"f32", "bf16"}));
  p.Set("T", *gen::Rows(tier));
  // Value heads: 1, a few, and the real models' 16 / 32 / 48 (Qwen3-Next).
  p.Set("Hv", *gen::Pick(std::vector<int64_t>{1, 2, 3, 4, 8, 16, 32, 48}));
  p.Set("pad", *gen::Pad());
  p.Set("scale", *gen::Scale());
}

void BuildGate(Case& c, int64_t tokens, int64_t hv) {
  const Params& p = c.params;
  const vt::DType ab = p.DType("ab");
  c.Input("a", ab, {tokens, hv}, entry::Values(p));
  c.Input("b", ab, {tokens, hv}, entry::Values(p));
  // Looked up again: a reference kept across Input() dangles when the
  // tensor list grows (a was left unpadded - the row-stride mutant survived).
  if (p.Int("pad") > 0) {
    c.Get("a").SetRowPadding(p.Int("pad"));
    c.Get("b").SetRowPadding(p.Int("pad"));
  }
  // A_log = log(A), A ~ U(1, 16) upstream; a little wider on both sides.
  c.Input("a_log", vt::DType::kF32, {hv}, Fill::Uniform(-1.0, 3.0));
  c.Input("dt_bias", vt::DType::kF32, {hv}, Fill::Normal(0.0, 1.0));
  c.Output("g_out", vt::DType::kF32, {tokens, hv});
  c.Output("beta_out", vt::DType::kF32, {tokens, hv});
}

template <class S>
entry::Outs<S> EvalGate(const Case& c) {
  const TensorData& g = c.Get("g_out");
  const auto r = oracle::GdnGBeta<S>(g.shape[0], g.shape[1], c.Get("a").Values(), c.Get("b").Values(),
                                     c.Get("a_log").Values(), c.Get("dt_bias").Values());
  return {{"g_out", r.g}, {"beta_out", r.beta}};
}
template entry::Outs<entry::Bounded> EvalGate<entry::Bounded>(const Case&);
template entry::Outs<float> EvalGate<float>(const Case&);

std::vector<OutputSpec> GateOutputs() {
  return {{"g_out", Bound("f32: a + dt_bias exact (one rounding of given values), then log1pf(expf(x)) "
                          "(glibc 2 + 1 ulps, propagated) below the guard or x above it, times "
                          "-expf(a_log) (1 ulp): running error bound of each step")},
          {"beta_out", Bound("f32 sigmoid 1 / (1 + expf(-b)): expf 1 ulp, the add and the division "
                             "one rounding each (running error bound)")}};
}

namespace local_gdn_gate_entry {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// Branch edges: the softplus guard at 20 and the exp overflow past 88.7 for
// a (+ dt_bias), the sigmoid's exp edges for b.
std::vector<ValueBand> GateEdges(const Params&) {
  // dt_bias ~ N(0, 1) moves x = a + dt_bias by a few units: bands wide enough
  // that x lands on both sides of 20 and of expf's overflow at 88.72.
  std::vector<ValueBand> v = {{"a", 17.0, 23.0}, {"a", 84.0, 95.0}, {"a", -95.0, -84.0}};
  for (const ValueBand& band : ExpBands("b")) v.push_back(band);
  return v;
}

// The contract rows of the gate operands (g_out written; the rest read).
std::vector<OperandRule> GateOperands() {
  using namespace entry;
  return {Written("g_out", kF32, kContiguous, {2}), Written("beta_out", kF32, kContiguous, {2}),
          Operand("a", kF32BF16, kRowStrided, {2}),  Operand("b", kF32BF16, kRowStrided, {2}),
          Operand("a_log", kF32, kContiguous, {1}),   Operand("dt_bias", kF32, kContiguous, {1})};
}

// Shape relations of the gate operands, one broken at a time.
std::vector<ErrorCase> GateShapeErrors() {
  return {mut::Dim("beta_out", 0, 1), mut::Dim("beta_out", 1, -1), mut::Dim("a", 0, 1),
          mut::Dim("a", 1, 1),        mut::Dim("b", 0, -1),        mut::Dim("b", 1, 1),
          mut::Dim("a_log", 0, 1),    mut::Dim("dt_bias", 0, -1),
          // b in the other accepted dtype than a's.
          mut::DType("b", vt::DType::kBF16), mut::DType("b", vt::DType::kF32)};
}

}  // namespace
}  // namespace local_gdn_gate_entry

OpSpec GateSpec(GateOp g) {
  using namespace local_gdn_gate_entry;
  OpSpec s = seq::Basics(g.name, "gdn", g.dtypes, g.hooks, DrawGate);
  s.oracle = entry::Bounds(g.hooks.oracle);
  s.oracle_f32 = entry::F32(g.hooks.definition);
  s.outputs = g.outputs;
  std::vector<OperandRule> operands = g.operands;
  seq::Append(operands, GateOperands());
  s.contract = {operands, g.scalars};
  s.values.specials = {{"a"}, {"b"}};
  s.values.edges = GateEdges;
  s.errors = GateShapeErrors();
  seq::Append(s.errors, g.errors);
  s.claims = g.claims;
  return s;
}

}  // namespace vt::conform::gdn_gate
