// Catalog entry: silu_and_mul (vLLM SiluAndMul: the SwiGLU of Llama/Qwen MLPs).
#include "harness/catalog/act/act_entry.h"
#include "oracles/act/silu_and_mul.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

using entry::Bounded;

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("silu_and_mul");
    p.Set("x", *gen::FloatIn());
    p.Set("out", *gen::FloatOut());
    p.Set("T", *gen::Rows(tier));
    p.Set("D", *gen::Width(tier));
    p.Set("scale", *act::ExpScale());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), d = p.Int("D");
  c.Input("x", p.DType("x"), {t, 2 * d}, entry::Values(p));
  c.Output("out", p.DType("out"), {t, d});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) { vt::SiluAndMul(ctx, ws["out"], ws["x"]); }

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& x = c.Get("x");
  return {{"out", oracle::SiluAndMul<S>(x.shape[0], x.shape[1] / 2, x.Values())}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Bound("f32: expf(-g) (glibc, 1 ulp), 1 + that, g / that, times up: running "
                        "error bound of each f32 step, then one rounding to out (docs/tolerance.md)")}};
}

// The same gate/up pairs as separate contiguous tensors for moe_silu_mul. Both
// kernels evaluate SiluF32(gate) * up in f32 and round once to out's dtype, so
// the bytes agree by construction. "out" is still poisoned: derive gets the
// case before any run.
Case AsMoeSiluMul(const Case& c) {
  const TensorData& x = c.Get("x");
  const int64_t t = x.shape[0], d = x.shape[1] / 2;
  const auto xs = x.Values();
  std::vector<double> gate, up;
  for (int64_t i = 0; i < t; ++i) {
    for (int64_t j = 0; j < d; ++j) {
      gate.push_back(xs[static_cast<std::size_t>(i * 2 * d + j)]);
      up.push_back(xs[static_cast<std::size_t>(i * 2 * d + d + j)]);
    }
  }
  Case m;
  m.params = Params("moe_silu_mul");
  m.params.Set("gate", c.params.Str("x"));
  m.params.Set("up", c.params.Str("x"));
  m.params.Set("out", c.params.Str("out"));
  m.params.seed = c.params.seed;
  m.tensors.push_back(TensorFromValues("gate", x.dtype, {t, d}, Role::kInput, gate));
  m.tensors.push_back(TensorFromValues("up", x.dtype, {t, d}, Role::kInput, up));
  m.tensors.push_back(CopyTensor(c.Get("out"), "out", Role::kOutput));
  return m;
}

// vLLM SiluAndMul goldens: x [..., 2D] -> out [..., D]; leading dims flattened.
GoldenMapping GoldenSiluAndMul(const GoldenCase& g) { return act::GoldenGlu(g, "silu_and_mul"); }

}  // namespace

OpSpec Spec_silu_and_mul() {
  OpSpec s;
  s.name = "silu_and_mul";
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
  s.values.edges = [](const Params&) { return ExpBands("x"); };
  s.errors = {mut::DType("x", vt::DType::kI32),  mut::DType("out", vt::DType::kF16),
              mut::DType("out", vt::DType::kI32), mut::Dim("x", 1, 1),  // odd inner dim
              mut::Dim("out", 1, 1),             mut::Dim("out", 0, 1),
              mut::AddDim("x"),                  mut::DropDim("x"),
              mut::AddDim("out"),                mut::Strided("x"),
              mut::Strided("out"),               mut::NullData("x"),
              mut::NullData("out"),              mut::OtherDevice("x"),
              mut::OtherDevice("out"),           mut::Alias("out", "x")};
  s.claims = {
      RowSlice({"x", "out"}),
      SameAs("moe_silu_mul_halves",
             "silu_and_mul(x) == moe_silu_mul(gate = x[:, :D], up = x[:, D:]) with the same out dtype",
             {}, "moe_silu_mul", AsMoeSiluMul, {{"out", "out"}}),
  };
  s.goldens = {{"silu_and_mul", GoldenSiluAndMul}};
  return s;
}

}  // namespace vt::conform
