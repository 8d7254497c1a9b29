// Catalog entry: silu_mul_fp4_quant (vLLM's SiLU-and-mul + NVFP4 quant fusion,
// two-input form: gate and up as separate [M,I] tensors).
#include "harness/catalog/act/act_entry.h"
#include "harness/catalog/quant/quant_entry.h"
#include "oracles/quant/silu_mul_fp4_quant.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("silu_mul_fp4_quant");
    const std::string dt = *gen::FloatIn();
    p.Set("gate", dt);
    p.Set("up", dt);  // one dtype for both
    p.Set("T", *gen::Rows(tier));
    p.Set("G", *quant::Groups(tier));
    const double scale = *act::ExpScale();
    p.Set("scale", scale);
    // silu(g) * up is about scale^2 in magnitude (scale for the near-linear 0.05).
    p.Set("gsi", quant::GsiValue(*quant::GsiKnob(), std::max(scale * scale, 0.05)));
    p.Set("scale_layout", *quant::ScaleLayoutKnob());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), i = 16 * p.Int("G");
  c.Input("gate", p.DType("gate"), {t, i}, entry::Values(p));
  c.Input("up", p.DType("up"), {t, i}, entry::Values(p));
  quant::AddOutputs(c, t, i);
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  vt::SiluMulFp4Quant(ctx, ws["out_packed"], ws["out_scale"], ws["gate"], ws["up"], p.F32("gsi"),
                      quant::LayoutOf(p));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& g = c.Get("gate");
  const int64_t t = g.shape[0], i = g.shape[1];
  return quant::AsOutputs(oracle::SiluMulFp4Quant<S>(g.Values(), c.Get("up").Values(), t, i,
                                                      static_cast<float>(c.params.Num("gsi"))),
                          c.params, t, i);
}

// moe_silu_mul(gate, up) with a bf16 out: the activation the fused op rounds through.
Case AsMoeSiluMul(const Case& c) {
  const TensorData& g = c.Get("gate");
  Case m;
  m.params = Params("moe_silu_mul");
  m.params.Set("gate", c.params.Str("gate"));
  m.params.Set("up", c.params.Str("up"));
  m.params.Set("out", "bf16");
  m.params.seed = c.params.seed;
  m.tensors = {CopyTensor(g, "gate", Role::kInput), CopyTensor(c.Get("up"), "up", Role::kInput),
               TensorFromValues("out", vt::DType::kBF16, g.shape, Role::kOutput,
                                std::vector<double>(static_cast<std::size_t>(g.Numel()), 0.0))};
  return m;
}

// vt-golden regen's cases (docs/goldens.md, "NVFP4 goldens"): the codes
// compared exactly, the recorded bf16 activation checked against moe_silu_mul.
GoldenMapping GoldenFused(const GoldenCase& g) {
  GoldenMapping m = quant::GoldenFp4Quant(g, "silu_mul_fp4_quant", "gate", 1, {"up"});
  quant::CheckActivation(m, g, "moe_silu_mul", AsMoeSiluMul);
  return m;
}

}  // namespace

OpSpec Spec_silu_mul_fp4_quant() {
  OpSpec s;
  s.name = "silu_mul_fp4_quant";
  s.family = "quant";
  s.dtypes = "cpu: gate, up one of f32/f16/bf16 [M,I], I % 16 == 0; outputs as scaled_fp4_quant";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = quant::Outputs;
  s.contract = {{entry::Operand("gate", entry::kFloatIn, entry::kContiguous, {2}),
                 entry::Operand("up", entry::kFloatIn, entry::kContiguous, {2}),
                 entry::Written("out_packed", entry::kU8, entry::kContiguous, {2}),
                 entry::Written("out_scale", entry::kU8, entry::kContiguous, {2})},
                quant::Scalars()};
  s.values.specials = {{"gate"}, {"up"}};
  s.values.edges = [](const Params&) { return ExpBands("gate"); };
  s.errors = quant::OutputErrors();
  s.errors.push_back(quant::InnerNotMultipleOf16("gate", 1, {"up"}));
  s.errors.push_back(mut::Dim("gate", 0, 1));
  s.errors.push_back(mut::Dim("up", 1, 16));  // up [M, I+16]: still a multiple of 16, not gate's shape
  s.errors.push_back(mut::Dim("up", 0, 1));
  s.errors.push_back(ErrorCase(
      "up_dtype_differs",
      [](Case& c) {
        TensorData* u = c.Find("up");
        if (u == nullptr) return false;
        u->dtype = u->dtype == vt::DType::kF32 ? vt::DType::kBF16 : vt::DType::kF32;
        u->fmt = oracle::FmtOf(u->dtype);
        u->SetContiguous();
        return true;
      },
      "up"));
  s.claims = {
      quant::LinearRowSlice({"gate", "up", "out_packed", "out_scale"}),
      quant::LayoutsAgree(),
      quant::ComposedOf("moe_silu_mul_then_quant",
                        "silu_mul_fp4_quant == moe_silu_mul(gate, up -> bf16) then scaled_fp4_quant (same gsi, "
                        "same scale layout)",
                        "moe_silu_mul", AsMoeSiluMul),
  };
  s.goldens = {{"silu_mul_fp4_quant", GoldenFused}};
  return s;
}

}  // namespace vt::conform
