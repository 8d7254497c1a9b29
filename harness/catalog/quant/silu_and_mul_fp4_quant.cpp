// Catalog entry: silu_and_mul_fp4_quant (vLLM silu_and_mul_nvfp4_quant: the
// one-input form, gate_up [M, 2I] with the gate half first).
#include "harness/catalog/act/act_entry.h"
#include "harness/catalog/quant/quant_entry.h"
#include "oracles/quant/silu_and_mul_fp4_quant.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("silu_and_mul_fp4_quant");
    p.Set("gate_up", *gen::Pick(std::vector<std::string>{"f32", "bf16"}));
    p.Set("T", *gen::Rows(tier));
    p.Set("G", *quant::Groups(tier));
    const double scale = *act::ExpScale();
    p.Set("scale", scale);
    p.Set("gsi", quant::GsiValue(*quant::GsiKnob(), std::max(scale * scale, 0.05)));
    p.Set("scale_layout", *quant::ScaleLayoutKnob());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), i = 16 * p.Int("G");
  c.Input("gate_up", p.DType("gate_up"), {t, 2 * i}, entry::Values(p));
  quant::AddOutputs(c, t, i);
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  vt::SiluAndMulFp4Quant(ctx, ws["out_packed"], ws["out_scale"], ws["gate_up"], p.F32("gsi"), quant::LayoutOf(p));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& x = c.Get("gate_up");
  const int64_t t = x.shape[0], i = x.shape[1] / 2;
  return quant::AsOutputs(
      oracle::SiluAndMulFp4Quant<S>(x.Values(), t, i, static_cast<float>(c.params.Num("gsi"))), c.params, t, i);
}

// silu_and_mul(gate_up) with a bf16 out: the activation the fused op rounds through.
Case AsSiluAndMul(const Case& c) {
  const TensorData& x = c.Get("gate_up");
  Case m;
  m.params = Params("silu_and_mul");
  m.params.Set("x", c.params.Str("gate_up"));
  m.params.Set("out", "bf16");
  m.params.seed = c.params.seed;
  m.tensors = {CopyTensor(x, "x", Role::kInput),
               TensorFromValues("out", vt::DType::kBF16, {x.shape[0], x.shape[1] / 2}, Role::kOutput,
                                std::vector<double>(static_cast<std::size_t>(x.Numel() / 2), 0.0))};
  return m;
}

// vt-golden regen's cases (docs/goldens.md, "NVFP4 goldens"): SiluAndMul's
// f32 activation rounded once to bf16 (recorded as act_bf16), then
// ref_nvfp4_quant. The codes are compared exactly; so that a code difference
// can be told apart from an activation difference, the composite's tail runs
// silu_and_mul (bf16 out) on gate_up and compares it with act_bf16 as well.
GoldenMapping GoldenSiluAndMulFp4(const GoldenCase& g) {
  GoldenMapping m = quant::GoldenFp4Quant(g, "silu_and_mul_fp4_quant", "gate_up", 2);
  quant::CheckActivation(m, g, "silu_and_mul", AsSiluAndMul);
  return m;
}

}  // namespace

OpSpec Spec_silu_and_mul_fp4_quant() {
  OpSpec s;
  s.name = "silu_and_mul_fp4_quant";
  s.family = "quant";
  s.dtypes = "cpu: gate_up f32/bf16 [M,2I], I % 16 == 0; outputs as scaled_fp4_quant with K = I";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = quant::Outputs;
  s.contract = {{entry::Operand("gate_up", entry::kF32BF16, entry::kContiguous, {2}),
                 entry::Written("out_packed", entry::kU8, entry::kContiguous, {2}),
                 entry::Written("out_scale", entry::kU8, entry::kContiguous, {2})},
                quant::Scalars()};
  s.values.specials = {{"gate_up"}};
  s.values.edges = [](const Params&) { return ExpBands("gate_up"); };
  s.errors = quant::OutputErrors();
  s.errors.push_back(quant::InnerNotMultipleOf16("gate_up", 2));
  s.errors.push_back(mut::Dim("gate_up", 1, 1));  // odd: no [M, 2I] split
  s.errors.push_back(mut::Dim("gate_up", 0, 1));
  s.claims = {
      quant::LinearRowSlice({"gate_up", "out_packed", "out_scale"}),
      quant::LayoutsAgree(),
      quant::ComposedOf("silu_and_mul_then_quant",
                        "silu_and_mul_fp4_quant == silu_and_mul(gate_up -> bf16) then scaled_fp4_quant (same gsi, "
                        "same scale layout)",
                        "silu_and_mul", AsSiluAndMul),
  };
  s.goldens = {{"silu_and_mul_fp4_quant", GoldenSiluAndMulFp4}};
  return s;
}

}  // namespace vt::conform
