// Catalog entry: scaled_fp4_quant (vLLM scaled_fp4_quant: NVFP4 activation
// quantization with e4m3 block scales per 16, linear or CUTLASS-swizzled).
#include "harness/catalog/quant/quant_entry.h"
#include "oracles/quant/scaled_fp4_quant.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("scaled_fp4_quant");
    p.Set("x", *gen::FloatIn());
    p.Set("T", *gen::Rows(tier));
    p.Set("G", *quant::Groups(tier));
    const double scale = *gen::Scale();
    p.Set("scale", scale);
    // aim=ties: every group's block scale a power of two and its elements on
    // the e2m1 ties and the saturation edge (quant::AimAtTies); needs gsi = 2^n.
    // aim=midpoints: each group's amax moved so that the f32 scale s lands on
    // an e4m3 rounding midpoint (quant::AimAtScaleMidpoints).
    const std::string aim = *gen::Pick(std::vector<std::string>{"none", "ties", "midpoints"});
    p.Set("gsi", aim == "ties" ? *gen::Pick(std::vector<double>{1.0, 64.0, 0.125})
                               : quant::GsiValue(*quant::GsiKnob(), scale));
    p.Set("aim", aim);
    p.Set("scale_layout", *quant::ScaleLayoutKnob());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), k = 16 * p.Int("G");
  c.Input("x", p.DType("x"), {t, k}, entry::Values(p));
  quant::AddOutputs(c, t, k);
  if (p.Str("aim") == "ties" && p.Num("gsi") > 0.0) quant::AimAtTies(c.Get("x"), p.seed, p.Num("gsi"));
  if (p.Str("aim") == "midpoints") quant::AimAtScaleMidpoints(c.Get("x"), p.seed, static_cast<float>(p.Num("gsi")));
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  vt::ScaledFp4Quant(ctx, ws["out_packed"], ws["out_scale"], ws["x"], p.F32("gsi"), quant::LayoutOf(p));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& x = c.Get("x");
  const int64_t t = x.shape[0], k = x.shape[1];
  return quant::AsOutputs(oracle::ScaledFp4Quant<S>(x.Values(), t, k, static_cast<float>(c.params.Num("gsi"))),
                          c.params, t, k);
}

}  // namespace

OpSpec Spec_scaled_fp4_quant() {
  OpSpec s;
  s.name = "scaled_fp4_quant";
  s.family = "quant";
  s.dtypes = "cpu: x f32/f16/bf16 [M,K], K % 16 == 0; out_packed u8 [M,K/2]; out_scale u8 (e4m3) linear "
             "[M,K/16] or swizzled [round_up(M,128), round_up(K/16,4)]";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = quant::Outputs;
  s.contract = {{entry::Operand("x", entry::kFloatIn, entry::kContiguous, {2}),
                 entry::Written("out_packed", entry::kU8, entry::kContiguous, {2}),
                 entry::Written("out_scale", entry::kU8, entry::kContiguous, {2})},
                quant::Scalars()};
  s.values.specials = {{"x"}};
  s.errors = quant::OutputErrors();
  s.errors.push_back(quant::InnerNotMultipleOf16("x", 1));
  s.errors.push_back(mut::Dim("x", 0, 1));
  s.claims = {quant::LinearRowSlice({"x", "out_packed", "out_scale"}), quant::LayoutsAgree()};
  // vt-golden regen's ref_nvfp4_quant cases (docs/goldens.md, "NVFP4 goldens").
  s.goldens = {{"scaled_fp4_quant", [](const GoldenCase& g) { return quant::GoldenFp4Quant(g, "scaled_fp4_quant", "x", 1); }}};
  return s;
}

}  // namespace vt::conform
