// Catalog entry: l2_norm (FLA l2norm_fwd, used on q/k in GDN/KDA).
#include "harness/catalog/norm/norm_entry.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "oracles/norm/l2_norm.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_l2_norm {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  norm_entry::DrawRankedRows(p, tier, "Hk");
  p.Set("D", *gen::Width(tier));
}

std::vector<int64_t> Shape(const Params& p) {
  if (p.Int("rank") == 3) return {p.Int("T"), p.Int("Hk"), p.Int("D")};
  return {p.Int("T"), p.Int("D")};
}

void Build(Case& c) {
  c.Input("x", c.params.DType("x"), Shape(c.params), entry::Values(c.params));
  c.Output("out", c.params.DType("out"), Shape(c.params));
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::L2Norm(ctx, ws["out"], ws["x"], {ws.params().F32("eps")});
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& x = c.Get("x");
  const int64_t d = x.shape.back();
  return {{"out", oracle::L2Norm<S>(x.Numel() / d, d, x.Values(), c.params.F32("eps"))}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Bound("f32 sum of squares over D, +eps, sqrt, reciprocal, one product: running "
                        "error bound of each f32 step")}};
}

// [T, Hk, D] normalises each D-row independently: same bytes as the [T*Hk, D] view.
Case AsRank2(const Case& c) {
  Case d = c;
  for (TensorData& t : d.tensors) {
    t.shape = {t.shape[0] * t.shape[1], t.shape[2]};
    t.SetContiguous();
  }
  return d;
}

// FLA l2norm_fwd goldens: {eps}; x, out of any rank, normalised over the last
// dim. A [T, Hk, D] golden stays the op's rank-3 case (the same rows); any
// other rank is flattened into [rows, D].
GoldenMapping GoldenL2Norm(const GoldenCase& g) {
  GoldenMapping m;
  TensorData x = GoldenTensor(g, "x", "x", Role::kInput);
  const std::string out_name = GoldenPick(g, {"out", "y"});
  TensorData out = GoldenOutputLike(g, out_name, "out");
  const bool rank3 = x.shape.size() == 3;
  if (!rank3) {
    x = AsRows(x);
    out = AsRows(out);
  }
  Params p("l2_norm");
  p.Set("x", DTypeKey(x));
  p.Set("out", DTypeKey(out));
  p.Set("rank", rank3 ? 3 : 2);
  p.Set("T", x.shape[0]);
  if (rank3) p.Set("Hk", x.shape[1]);
  p.Set("D", x.shape.back());
  p.Set("eps", g.ArgNum("eps", 1e-6));
  m.c.params = p;
  m.c.tensors = {x, out};
  m.compare = {{"out", out_name}};
  return m;
}

// The inverse of GoldenL2Norm (vt-fuzz --upstream): fla's l2norm_fwd on x of
// rank 2 or 3, normalised over the last dim.
UpstreamCall UpstreamL2Norm(const Case& c) {
  RequireElements(c, "x");
  UpstreamCall u;
  u.op = "l2norm";
  u.args = {{"eps", c.params.Num("eps")}};
  u.inputs = {UpstreamInput(c, "x", "x")};
  u.outputs = {UpstreamOutput(c, "out", "out")};
  return u;
}

}  // namespace
}  // namespace local_l2_norm

OpSpec Spec_l2_norm() {
  using namespace local_l2_norm;
  OpSpec s = norm_entry::NormSpec({
      .name = "l2_norm",
      .keys = {entry::DrawIn("x"), entry::DrawOut("out")},
      .dtypes = "cpu: x f32/f16/bf16 (rank 2 or 3); out f32/bf16",
      .draw = Draw,
      .fns = {Build, Run, Eval<entry::Bounded>, Eval<float>, Outputs},
  });
  s.contract = {{entry::Operand("x", entry::kFloatIn, entry::kContiguous, {2, 3}), entry::Written("out", entry::kFloatOut)}, {entry::PositiveFinite("eps")}};
  s.values.specials = {{"x", true}};  // one NaN/inf reaches its row's sum
  s.errors = {mut::DType("x", vt::DType::kI8),  mut::DType("out", vt::DType::kF16),
              mut::Dim("out", 0, 1),            mut::Dim("out", 1, 1),
              mut::AddDim("x"),                 mut::DropDim("out"),
              mut::Strided("x"),                mut::Strided("out"),
              mut::NullData("x"),               mut::OtherDevice("out"),
              mut::Alias("out", "x"),           mut::Arg("eps", 0.0),
              mut::Arg("eps", NAN),             mut::EmptyInner("x")};
  s.claims = {SameAs("rank3_as_rank2", "[T,Hk,D] == the same bytes viewed as [T*Hk, D]",
                     [](const Params& p) { return p.Int("rank") == 3; }, "l2_norm", AsRank2,
                     {{"out", "out"}}),
              RowSlice({"x", "out"})};
  s.goldens = {{"l2norm", GoldenL2Norm}, {"l2_norm", GoldenL2Norm}};
  return s;
}

UpstreamMap UpstreamMap_l2_norm() {
  using namespace local_l2_norm;
  return {"l2_norm", "l2norm", UpstreamL2Norm};
}

}  // namespace vt::conform
