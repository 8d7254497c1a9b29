// Catalog entry: mul_scalar (Gemma's embedding normaliser: hidden * sqrt(hidden_size)).
#include <cmath>

#include "harness/catalog/act/act_entry.h"
#include "oracles/act/mul_scalar.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

using entry::Bounded;

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("mul_scalar");
    p.Set("x", *gen::FloatIn());
    p.Set("out", *gen::FloatOut());
    p.Set("T", *gen::Rows(tier));
    p.Set("H", *gen::Width(tier));
    gen::DrawRank(p, tier);
    // Negative, tiny, large, and sqrt(2048) (Gemma's normaliser at hidden size
    // 2048). 1e-3, 33.3, 0.1 and sqrt(2048) are not f32 values: the kernel
    // multiplies by f32(s), which is also what the oracle is given.
    p.Set("s", *gen::Pick(
                   std::vector<double>{2.0, -0.5, 1e-3, 33.3, 45.254833995939045, 0.1}));
    // No exp/tanh here: the general magnitudes (x * s stays far below f32/bf16 overflow).
    p.Set("scale", *gen::Scale());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  c.Input("x", p.DType("x"), act::RankShape(p), entry::Values(p));
  c.Output("out", p.DType("out"), act::RankShape(p));
}

// The API takes the scalar as a double and narrows it to f32 itself.
void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::MulScalar(ctx, ws["out"], ws["x"], ws.params().Num("s"));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  return {{"out", oracle::MulScalar<S>(c.Get("x").Values(), c.params.F32("s"))}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Exact("one f32 multiply of the given x and f32(s), rounded once to out: defined "
                        "exactly")}};
}

// x * s as the in-place column scale with every column factor equal to f32(s):
// both kernels form the one f32 product LoadF32(x) * f32(s) and store it to the
// same dtype, so the bytes agree for any reshape of x to [numel / last, last].
bool SameStoreDType(const Params& p) {
  return p.Str("x") == p.Str("out") && (p.Str("x") == "f32" || p.Str("x") == "bf16");
}

Case AsMulColVec(const Case& c) {
  const TensorData& x = c.Get("x");
  const int64_t n = x.shape.back(), m = n == 0 ? 0 : x.Numel() / n;
  Case d;
  d.params = Params("mul_col_vec_f32");
  d.params.Set("x", c.params.Str("x"));
  d.params.Set("T", m);
  d.params.Set("N", n);
  d.params.seed = c.params.seed;
  d.tensors.push_back(act::Reshaped(x, "x", Role::kInPlace, {m, n}));
  d.tensors.push_back(TensorFromValues("col", vt::DType::kF32, {n}, Role::kInput,
                                       std::vector<double>(static_cast<std::size_t>(n), c.params.F32("s"))));
  return d;
}

}  // namespace

OpSpec Spec_mul_scalar() {
  OpSpec s;
  s.name = "mul_scalar";
  s.family = "act";
  s.dtypes = "cpu: x f32/f16/bf16; out f32/bf16 (same shape, rank 1..4); f32(s) finite";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = Outputs;
  s.contract = {{entry::Operand("x", entry::kFloatIn), entry::Written("out", entry::kFloatOut)}, {entry::Finite("s")}};
  s.values.specials = {{"x"}};
  s.errors = {mut::DType("x", vt::DType::kI32),   mut::DType("out", vt::DType::kF16),
              mut::DType("out", vt::DType::kI8),  mut::Dim("out", 0, 1),
              mut::Dim("x", 0, 1),                mut::AddDim("out"),
              mut::DropDim("out"),                mut::Strided("x"),
              mut::Strided("out"),                mut::NullData("x"),
              mut::NullData("out"),               mut::OtherDevice("x"),
              mut::Alias("out", "x"),
              mut::Arg("s", 1e39),    // finite double, inf as f32
              mut::Arg("s", -1e39),   mut::Arg("s", NAN)};
  s.claims = {
      FlatSlice({"x", "out"}),
      SameAs("mul_col_vec_const",
             "mul_scalar(x, s) == mul_col_vec_f32 in place on x reshaped [numel/last, last] with "
             "col = f32(s) repeated (x and out of one dtype, f32 or bf16)",
             SameStoreDType, "mul_col_vec_f32", AsMulColVec, {{"out", "x"}}),
  };
  return s;
}

}  // namespace vt::conform
