// Catalog entry: rms_norm (vLLM RMSNorm / GemmaRMSNorm / fused_add_rms_norm).
#include "harness/catalog/norm/norm_entry.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "oracles/norm/rms_norm.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_rms_norm {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Build(Case& c) {
  norm_entry::BuildRmsInputs(c);
  c.Output("out", c.params.DType("out"), c.Get("x").shape);
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  vt::RmsNorm(ctx, ws["out"], ws["x"], ws["weight"], {p.F32("eps"), p.Flag("gemma")},
              ws.Find("residual"));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& x = c.Get("x");
  norm_entry::ResidualIn<S> res(c);
  entry::Outs<S> o{{"out", oracle::RmsNorm<S>(x.shape[0], x.shape[1], x.Values(), entry::Vals(c, "weight"),
                                              c.params.Flag("gemma"), c.params.F32("eps"), res.get(), res.fmt())}};
  res.AddTo(o);
  return o;
}

std::vector<OutputSpec> Outputs(const Case& c) {
  std::vector<OutputSpec> o = {
      {"out", Bound("f32 sum of squares over H, /H, +eps, sqrt, reciprocal, two products "
                    "(+1 for gemma): running error bound of each f32 step (docs/tolerance.md)")}};
  if (c.Find("residual") != nullptr) {
    o.push_back({"residual", Exact("one f32 add of exact inputs, rounded to the residual dtype: "
                                   "defined exactly")});
  }
  return o;
}

// The residual stream after the fused add: round_residual_dtype(f32(x + residual)).
Case PlainOnUpdatedResidual(const Case& c) {
  Case d;
  d.params = c.params;
  const TensorData& r = c.Get("residual");
  const auto xs = c.Get("x").Values();
  auto rs = r.Values();
  for (std::size_t k = 0; k < rs.size(); ++k) rs[k] = entry::F32(xs[k] + rs[k]);
  d.tensors.push_back(TensorFromValues("x", r.dtype, r.shape, Role::kInput, rs));
  d.tensors.push_back(CopyTensor(c.Get("weight"), "weight", Role::kInput));
  d.tensors.push_back(CopyTensor(c.Get("out"), "out", Role::kOutput));
  return d;
}

// gemma's (1 + w) folded into an f32 weight: f32(w) + 1 is the kernel's own add.
Case GemmaFolded(const Case& c) {
  Case d = c;
  d.params.Set("gemma", 0);
  const TensorData& w = c.Get("weight");
  auto ws = w.Values();
  for (double& v : ws) v = entry::F32(v + 1.0);
  d.Get("weight") = TensorFromValues("weight", vt::DType::kF32, w.shape, Role::kInput, ws);
  return d;
}

// vLLM RMSNorm / GemmaRMSNorm goldens: {eps, gemma, fused_residual}; x, weight,
// out, and residual_in -> residual_out for the fused add. Leading dims of x are
// flattened into rows.
GoldenMapping GoldenRmsNorm(const GoldenCase& g) {
  GoldenMapping m;
  const bool fused = g.ArgBool("fused_residual", false);
  if (fused && g.Has("residual_in") && g.Get("residual_in").dtype == vt::DType::kF16) {
    throw GoldenUnsupported("an f16 residual stream (the residual is stored as f32 or bf16)");
  }
  const TensorData x = AsRows(GoldenTensor(g, "x", "x", Role::kInput));
  Params p("rms_norm");
  p.Set("x", DTypeKey(x));
  p.Set("w", DTypeKey(g.Get("weight")));
  p.Set("out", DTypeKey(GoldenOutputLike(g, "out", "out")));
  p.Set("T", x.shape[0]);
  p.Set("H", x.shape[1]);
  p.Set("gemma", g.ArgBool("gemma", false) ? 1 : 0);
  p.Set("residual", fused ? DTypeKey(g.Get("residual_in")) : "none");
  p.Set("eps", g.ArgNum("eps", 1e-6));
  m.c.params = p;
  m.c.tensors = {x, GoldenTensor(g, "weight", "weight", Role::kInput)};
  if (fused) m.c.tensors.push_back(AsRows(GoldenTensor(g, "residual_in", "residual", Role::kInPlace)));
  m.c.tensors.push_back(AsRows(GoldenOutputLike(g, "out", "out")));
  m.compare = {{"out", "out"}};
  if (fused) m.compare.push_back({"residual", GoldenPick(g, {"residual_out"})});
  // A manifest may hold residual_out to its own (tighter) tolerance
  // (vt-fuzz --upstream: 0, the updated stream being one exact f32 add
  // rounded to x's dtype on both sides).
  PerOutputTol(g, m);
  return m;
}

// The inverse of GoldenRmsNorm (vt-fuzz --upstream): the case as the
// "rmsnorm" runner key's call. Upstream rounds the updated residual stream to
// x's dtype, so a residual of another dtype has no upstream form.
UpstreamCall UpstreamRmsNorm(const Case& c) {
  const Params& p = c.params;
  const TensorData& x = c.Get("x");
  RequireElements(c, "x");
  const bool fused = p.Str("residual") != "none";
  if (fused && c.Get("residual").dtype != x.dtype) {
    throw GoldenUnsupported("a residual stream of another dtype than x (upstream stores the updated stream in x's "
                            "dtype)");
  }
  UpstreamCall u;
  u.op = "rmsnorm";
  u.args = {{"eps", p.Num("eps")}, {"gemma", p.Flag("gemma")}, {"fused_residual", fused}};
  u.inputs = {UpstreamInput(c, "x", "x"), UpstreamInput(c, "weight", "weight")};
  if (fused) u.inputs.push_back(UpstreamInput(c, "residual", "residual_in"));
  u.outputs = {UpstreamOutput(c, "out", "out")};
  if (fused) u.outputs.push_back(UpstreamOutput(c, "residual", "residual_out"));
  return u;
}

}  // namespace
}  // namespace local_rms_norm

OpSpec Spec_rms_norm() {
  using namespace local_rms_norm;
  OpSpec s = norm_entry::NormSpec({
      .name = "rms_norm",
      .keys = {entry::DrawIn("x"), entry::DrawIn("w"), entry::DrawOut("out")},
      .dtypes = "cpu: x,weight f32/f16/bf16; out f32/bf16; residual f32/bf16 (in place)",
      .draw = norm_entry::DrawRmsShape,
      .fns = {Build, Run, Eval<entry::Bounded>, Eval<float>, Outputs},
  });
  s.contract = {{entry::Operand("x", entry::kFloatIn, entry::kContiguous, {2}), entry::Operand("weight", entry::kFloatIn, entry::kContiguous, {1}), entry::Written("residual", entry::kF32BF16), entry::Written("out", entry::kFloatOut)}, {entry::PositiveFinite("eps")}};
  s.values.specials = {{"x", true}, {"residual", true}, {"weight"}};
  s.errors = {mut::DType("x", vt::DType::kI32),      mut::DType("out", vt::DType::kF16),
              mut::DType("weight", vt::DType::kU8),  mut::DType("residual", vt::DType::kF16),
              mut::Dim("weight", 0, 1),              mut::Dim("out", 1, -1),
              mut::Dim("out", 0, 1),                 mut::Dim("residual", 0, 1),
              mut::AddDim("x"),                      mut::DropDim("out"),
              mut::Strided("x"),                     mut::Strided("out"),
              mut::Strided("residual"),              mut::NullData("x"),
              mut::NullData("out"),                  mut::OtherDevice("weight"),
              mut::Alias("out", "x"),                mut::Alias("residual", "x"),
              mut::Alias("out", "residual"),         mut::Arg("eps", 0.0),
              mut::Arg("eps", -1e-6),                mut::Arg("eps", NAN),
              mut::EmptyInner("x")};
  s.claims = {
      SameAs("residual_then_plain",
             "rms_norm with a residual == rms_norm (no residual) of the updated residual stream",
             [](const Params& p) { return p.Str("residual") != "none"; }, "rms_norm",
             PlainOnUpdatedResidual, {{"out", "out"}}),
      SameAs("gemma_folded", "gemma=1 with weight w == gemma=0 with the f32 weight (w + 1)",
             [](const Params& p) { return p.Flag("gemma"); }, "rms_norm", GemmaFolded,
             {{"out", "out"}, {"residual", "residual"}}),
      RowSlice({"x", "residual", "out"}),
  };
  s.goldens = {{"rmsnorm", GoldenRmsNorm}, {"rms_norm", GoldenRmsNorm}};
  return s;
}

UpstreamMap UpstreamMap_rms_norm() {
  using namespace local_rms_norm;
  return {"rms_norm", "rmsnorm", UpstreamRmsNorm};
}

}  // namespace vt::conform
