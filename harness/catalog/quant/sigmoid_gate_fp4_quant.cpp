// Catalog entry: sigmoid_gate_fp4_quant (Qwen3-Next: attn * sigmoid(gate),
// rounded to bf16, then o_proj's NVFP4 activation quant; an Inductor fusion
// upstream, composite by definition here).
#include "harness/catalog/act/act_entry.h"
#include "harness/catalog/quant/quant_entry.h"
#include "oracles/quant/sigmoid_gate_fp4_quant.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("sigmoid_gate_fp4_quant");
    p.Set("attn", *gen::Pick(std::vector<std::string>{"f32", "bf16"}));
    p.Set("gate", "f32");  // the only gate dtype: the sigmoid input is never pre-rounded
    p.Set("T", *gen::Rows(tier));
    p.Set("G", *quant::Groups(tier));
    const double scale = *act::ExpScale();
    p.Set("scale", scale);
    p.Set("gsi", quant::GsiValue(*quant::GsiKnob(), scale));
    p.Set("scale_layout", *quant::ScaleLayoutKnob());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), k = 16 * p.Int("G");
  c.Input("attn", p.DType("attn"), {t, k}, entry::Values(p));
  c.Input("gate", p.DType("gate"), {t, k}, entry::Values(p));
  quant::AddOutputs(c, t, k);
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  vt::SigmoidGateFp4Quant(ctx, ws["out_packed"], ws["out_scale"], ws["attn"], ws["gate"], p.F32("gsi"),
                          quant::LayoutOf(p));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& a = c.Get("attn");
  const int64_t t = a.shape[0], k = a.shape[1];
  return quant::AsOutputs(oracle::SigmoidGateFp4Quant<S>(a.Values(), c.Get("gate").Values(), t, k,
                                                          static_cast<float>(c.params.Num("gsi"))),
                          c.params, t, k);
}

// sigmoid_gate_bf16(attn, gate): the activation the fused op rounds through.
Case AsSigmoidGate(const Case& c) {
  const TensorData& a = c.Get("attn");
  Case m;
  m.params = Params("sigmoid_gate_bf16");
  m.params.Set("attn", c.params.Str("attn"));
  m.params.Set("gate", "f32");
  m.params.Set("out", "bf16");
  m.params.seed = c.params.seed;
  m.tensors = {CopyTensor(a, "attn", Role::kInput), CopyTensor(c.Get("gate"), "gate", Role::kInput),
               TensorFromValues("out", vt::DType::kBF16, a.shape, Role::kOutput,
                                std::vector<double>(static_cast<std::size_t>(a.Numel()), 0.0))};
  return m;
}

// vt-golden regen's cases (docs/goldens.md, "NVFP4 goldens"): the codes
// compared exactly, the recorded bf16 activation checked against sigmoid_gate_bf16.
GoldenMapping GoldenFused(const GoldenCase& g) {
  GoldenMapping m = quant::GoldenFp4Quant(g, "sigmoid_gate_fp4_quant", "attn", 1, {"gate"});
  quant::CheckActivation(m, g, "sigmoid_gate_bf16", AsSigmoidGate);
  return m;
}

}  // namespace

OpSpec Spec_sigmoid_gate_fp4_quant() {
  OpSpec s;
  s.name = "sigmoid_gate_fp4_quant";
  s.family = "quant";
  s.dtypes = "cpu: attn f32/bf16 [M,K], gate f32 [M,K], K % 16 == 0; outputs as scaled_fp4_quant";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = quant::Outputs;
  s.contract = {{entry::Operand("attn", entry::kF32BF16, entry::kContiguous, {2}),
                 entry::Operand("gate", entry::kF32, entry::kContiguous, {2}),
                 entry::Written("out_packed", entry::kU8, entry::kContiguous, {2}),
                 entry::Written("out_scale", entry::kU8, entry::kContiguous, {2})},
                quant::Scalars()};
  s.values.specials = {{"attn"}, {"gate"}};
  s.values.edges = [](const Params&) { return ExpBands("gate"); };
  s.errors = quant::OutputErrors();
  s.errors.push_back(quant::InnerNotMultipleOf16("attn", 1, {"gate"}));
  s.errors.push_back(mut::Dim("attn", 0, 1));
  s.errors.push_back(mut::Dim("gate", 0, 1));
  s.errors.push_back(mut::Dim("gate", 1, 16));
  s.claims = {
      quant::LinearRowSlice({"attn", "gate", "out_packed", "out_scale"}),
      quant::LayoutsAgree(),
      quant::ComposedOf("sigmoid_gate_then_quant",
                        "sigmoid_gate_fp4_quant == sigmoid_gate_bf16(attn, gate -> bf16) then scaled_fp4_quant "
                        "(same gsi, same scale layout)",
                        "sigmoid_gate_bf16", AsSigmoidGate),
  };
  s.goldens = {{"sigmoid_gate_fp4_quant", GoldenFused}};
  return s;
}

}  // namespace vt::conform
