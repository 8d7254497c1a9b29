// Catalog entry: gelu_and_mul (vLLM GeluAndMul(approximate="tanh"): Gemma's GeGLU).
#include "harness/catalog/act/act_entry.h"
#include "oracles/act/gelu_and_mul.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

using entry::Bounded;

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("gelu_and_mul");
    p.Set("x", *gen::FloatIn());
    p.Set("out", *gen::FloatOut());
    p.Set("T", *gen::Rows(tier));
    p.Set("D", *gen::Width(tier));
    // x ~ U(-scale, scale), never below -4: for g < ~-4.7 the f32 formula's
    // 1 + tanh(inner) cancels to a few f32 ulps of 1 (or to 0), no bound tighter
    // than |out| exists there, and the trust check would rightly refuse such
    // cases (a normal's tail reaches there in a few small cases per thousand).
    // 4 covers the whole tanh knee and the deep negative side, 0.05 the
    // near-linear region, 1 and 2 the typical activations.
    p.Set("scale", *gen::Pick(std::vector<double>{1.0, 2.0, 4.0, 0.05}));
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), d = p.Int("D");
  c.Input("x", p.DType("x"), {t, 2 * d}, Fill::Uniform(-p.Num("scale"), p.Num("scale")));
  c.Output("out", p.DType("out"), {t, d});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) { vt::GeluAndMul(ctx, ws["out"], ws["x"]); }

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& x = c.Get("x");
  return {{"out", oracle::GeluAndMul<S>(x.shape[0], x.shape[1] / 2, x.Values())}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Bound("f32: 0.044715*g*g*g, + g, * sqrt(2/pi) (both constants held as their f32 "
                        "roundings), tanhf (glibc, 2 ulps), 1 + that, (0.5*g) * that, times up: "
                        "running error bound of each f32 step, then one rounding to out "
                        "(docs/tolerance.md)")}};
}

// vLLM GeluAndMul(approximate="tanh") goldens: x [..., 2D] -> out [..., D]; leading dims flattened.
GoldenMapping GoldenGeluAndMul(const GoldenCase& g) {
  const std::string approx = g.ArgStr("approximate", "tanh");
  if (approx != "tanh") throw GoldenUnsupported("gelu approximate='" + approx + "' (only the tanh form)");
  return act::GoldenGlu(g, "gelu_and_mul");
}

}  // namespace

OpSpec Spec_gelu_and_mul() {
  OpSpec s;
  s.name = "gelu_and_mul";
  s.family = "act";
  s.dtypes = "cpu: x f32/f16/bf16 [T,2D]; out f32/bf16 [T,D]";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = Outputs;
  s.contract = {{entry::Operand("x", entry::kFloatIn, entry::kContiguous, {2}), entry::Written("out", entry::kFloatOut)}, {}};
  s.values.specials = {{"x"}};
  // tanhf(inner) reaches +-1.0f only past |inner| ~ 9.01 (|g| ~ 5.15);
  // saturation shortcuts at |inner| > 7 (|g| > 4.6) differ in between.
  s.values.edges = [](const Params&) { return Symmetric("x", 4.5, 5.3); };
  s.errors = {mut::DType("x", vt::DType::kI32),  mut::DType("x", vt::DType::kU8),
              mut::DType("out", vt::DType::kF16), mut::Dim("x", 1, 1),  // odd inner dim
              mut::Dim("out", 1, -1),            mut::Dim("out", 0, 1),
              mut::AddDim("x"),                  mut::DropDim("out"),
              mut::Strided("x"),                 mut::Strided("out"),
              mut::NullData("x"),                mut::NullData("out"),
              mut::OtherDevice("out"),           mut::Alias("out", "x")};
  // No other op evaluates GELU-tanh, so the only bit-exact claim is batch invariance.
  s.claims = {RowSlice({"x", "out"})};
  s.goldens = {{"gelu_and_mul", GoldenGeluAndMul}, {"gelu_tanh_and_mul", GoldenGeluAndMul}};
  return s;
}

}  // namespace vt::conform
