// Catalog entry: rms_norm_gated (FLA rmsnorm_fn / vLLM RMSNormGated; Qwen3-Next
// silu gate, KDA sigmoid gate; the gate may be a padded-token-stride view).
#include "harness/catalog/norm/norm_entry.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "oracles/norm/rms_norm_gated.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_rms_norm_gated {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Build(Case& c) {
  const Params& p = c.params;
  norm_entry::BuildGatedInputs(c, p.DType("x"), p.DType("gate"), p.DType("w"));
  c.Output("out", p.DType("out"), c.Get("x").shape);
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  vt::RmsNormGated(ctx, ws["out"], ws["x"], ws["gate"], ws["weight"], {p.F32("eps"), p.Flag("sigmoid")});
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& x = c.Get("x");
  return {{"out", oracle::RmsNormGated<S>(norm_entry::GatedRows(x), x.shape.back(), x.Values(), entry::Vals(c, "gate"),
                                          entry::Vals(c, "weight"), c.params.F32("eps"), c.params.Flag("sigmoid"))}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Bound("rms part as rms_norm; act = 1/(1+expf(-z)) or z/(1+expf(-z)) with expf's "
                        "1-ulp glibc bound; three products: running error bound")}};
}

Case ContiguousGate(const Case& c) {
  Case d = c;
  d.Get("gate") = CopyTensor(c.Get("gate"), "gate", Role::kInput);
  return d;
}

Case AsRank2(const Case& c) {
  Case d = c;
  for (TensorData& t : d.tensors) {
    if (t.shape.size() == 3) {
      t.shape = {t.shape[0] * t.shape[1], t.shape[2]};
      t.SetContiguous();
    }
  }
  return d;
}

// FLA rmsnorm_fn / vLLM RMSNormGated goldens: {eps, norm_before_gate,
// activation silu|swish|sigmoid, group_size}. Norm-before-gate with no groups
// (or one group of D) is rms_norm_gated; gate-before-norm with a silu gate is
// the Mamba2 form, rms_norm_gated_group with D / group_size groups.
GoldenMapping GoldenRmsNormGated(const GoldenCase& g) {
  GoldenMapping m;
  const std::string act = g.ArgStr("activation", "silu");
  if (act != "silu" && act != "swish" && act != "sigmoid") throw GoldenUnsupported("activation '" + act + "'");
  const bool before = g.ArgBool("norm_before_gate", true);
  const std::string gate_name = GoldenPick(g, {"gate", "z"});
  // A [T, Hv, D] golden of the ungrouped form stays the op's rank-3 case;
  // any other rank is flattened into [rows, D].
  const bool rank3 = before && g.Get("x").shape.size() == 3;
  const auto rows = [&](TensorData t) { return rank3 ? t : AsRows(std::move(t)); };
  const TensorData x = rows(GoldenTensor(g, "x", "x", Role::kInput));
  const int64_t d = x.shape.back();
  const int64_t group = g.ArgInt("group_size").value_or(d);  // null or absent: one group of D
  if (group <= 0 || d % group != 0) throw GoldenUnsupported("group_size " + std::to_string(group) + " does not divide D");
  Params p(before ? "rms_norm_gated" : "rms_norm_gated_group");
  p.Set("x", DTypeKey(x));
  p.Set("gate", DTypeKey(g.Get(gate_name)));
  p.Set("w", DTypeKey(g.Get("weight")));
  p.Set("out", DTypeKey(GoldenOutputLike(g, "out", "out")));
  p.Set("rank", rank3 ? 3 : 2);
  p.Set("T", x.shape[0]);
  if (rank3) p.Set("Hv", x.shape[1]);
  if (before) {
    if (group != d) throw GoldenUnsupported("norm_before_gate with group_size < D");
    p.Set("D", d);
    p.Set("pad", 0);
    p.Set("sigmoid", act == "sigmoid" ? 1 : 0);
  } else {
    if (act == "sigmoid") throw GoldenUnsupported("gate-before-norm with a sigmoid gate");
    p.Set("n_groups", d / group);
    p.Set("group", group);
    m.run_op = "rms_norm_gated_group";
  }
  p.Set("eps", g.ArgNum("eps", 1e-6));
  m.c.params = p;
  m.c.tensors = {x, rows(GoldenTensor(g, gate_name, "gate", Role::kInput)),
                 GoldenTensor(g, "weight", "weight", Role::kInput), rows(GoldenOutputLike(g, "out", "out"))};
  m.compare = {{"out", "out"}};
  return m;
}

// The inverse of GoldenRmsNormGated (vt-fuzz --upstream): norm before the
// gate over whole rows of x [T, D] or [T, Hv, D], a silu or sigmoid gate.
// Upstream takes a contiguous gate: a padded token stride is the oracle mode's.
UpstreamCall UpstreamRmsNormGated(const Case& c) {
  const Params& p = c.params;
  RequireElements(c, "x");
  if (p.Int("pad") > 0) throw GoldenUnsupported("a padded gate token stride (upstream takes the gate contiguous)");
  UpstreamCall u;
  u.op = "rmsnorm_gated";
  u.args = {{"eps", p.Num("eps")}, {"norm_before_gate", true}, {"activation", p.Flag("sigmoid") ? "sigmoid" : "silu"}};
  u.inputs = {UpstreamInput(c, "x", "x"), UpstreamInput(c, "gate", "gate"), UpstreamInput(c, "weight", "weight")};
  u.outputs = {UpstreamOutput(c, "out", "out")};
  return u;
}

}  // namespace
}  // namespace local_rms_norm_gated

OpSpec Spec_rms_norm_gated() {
  using namespace local_rms_norm_gated;
  OpSpec s = norm_entry::NormSpec({
      .name = "rms_norm_gated",
      .keys = {entry::DrawIn("x"), entry::DrawIn("gate"), entry::DrawIn("w"), entry::DrawOut("out")},
      .dtypes = "cpu: x,gate,weight f32/f16/bf16; out f32/bf16; gate token stride may be padded",
      .draw = norm_entry::DrawGated,
      .fns = {Build, Run, Eval<entry::Bounded>, Eval<float>, Outputs},
  });
  s.contract = {{entry::Operand("x", entry::kFloatIn, entry::kContiguous, {2, 3}), entry::Operand("gate", entry::kFloatIn, entry::kRowStrided), entry::Operand("weight", entry::kFloatIn, entry::kContiguous, {1}), entry::Written("out", entry::kFloatOut)}, {entry::PositiveFinite("eps")}};
  s.values.specials = {{"x", true}, {"gate"}, {"weight"}};
  s.values.edges = [](const Params&) { return ExpBands("gate"); };
  s.errors = {mut::DType("gate", vt::DType::kI32),  mut::DType("out", vt::DType::kF16),
              mut::DType("weight", vt::DType::kI64), mut::Dim("gate", 0, 1),
              mut::Dim("weight", 0, 1),              mut::Dim("out", 1, -1),
              mut::AddDim("gate"),                   mut::DropDim("x"),
              mut::InnerStride("gate"),              mut::OverlappingRows("gate"),
              mut::Strided("x"),                     mut::Strided("out"),
              mut::NullData("gate"),                 mut::OtherDevice("gate"),
              mut::Alias("out", "gate"),             mut::Arg("eps", -1.0),
              mut::EmptyInner("x"),                  mut::PaddedMiddle("gate")};
  s.claims = {SameAs("gate_contiguous", "a padded-token-stride gate == its contiguous copy",
                     [](const Params& p) { return p.Int("pad") > 0; }, "rms_norm_gated", ContiguousGate,
                     {{"out", "out"}}),
              SameAs("rank3_as_rank2", "[T,Hv,D] == the [T*Hv, D] view of the same bytes",
                     [](const Params& p) { return p.Int("rank") == 3 && p.Int("pad") == 0; },
                     "rms_norm_gated", AsRank2, {{"out", "out"}}),
              RowSlice({"x", "gate", "out"})};
  s.goldens = {{"rmsnorm_gated", GoldenRmsNormGated}, {"rms_norm_gated", GoldenRmsNormGated}};
  return s;
}

UpstreamMap UpstreamMap_rms_norm_gated() {
  using namespace local_rms_norm_gated;
  return {"rms_norm_gated", "rmsnorm_gated", UpstreamRmsNormGated};
}

}  // namespace vt::conform
