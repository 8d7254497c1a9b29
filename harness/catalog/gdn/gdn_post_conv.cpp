// Catalog entry: gdn_post_conv (fla fused_post_conv_prep: the GDN conv output
// split into q, k, v with q/k l2-normalised per head, and the GDN gate).
#include <cmath>

#include "harness/catalog/catalog.h"
#include "harness/catalog/gdn/gdn_gate_entry.h"
#include "oracles/gdn/gdn_post_conv.h"
#include "vt/ops.h"
#include "vt/ops_gdn_glue.h"

namespace vt::conform {
namespace local_gdn_post_conv {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// After DrawGate.
void DrawMore(Params& p, Tier) {
  // Fewer tokens and heads than gdn_g_beta draws: a row here is
  // 2*Hk*Dk + Hv*Dv wide, and the negative mode materialises every case
  // once per error case.
  p.Set("T", *gen::Pick(std::vector<int64_t>{1, 2, 3, 5, 8, 17, 64}));  // T = 0 is refused
  p.Set("Hv", *gen::Pick(std::vector<int64_t>{1, 2, 3, 4, 8, 16}));
  p.Set("conv", *gen::Pick(std::vector<std::string>{"f32", "bf16"}));
  p.Set("out", *gen::Pick(std::vector<std::string>{"f32", "bf16"}));  // q/k/v share one dtype
  p.Set("Hk", *gen::Pick(std::vector<int64_t>{1, 2, 4}));
  p.Set("Dk", *gen::Pick(std::vector<int64_t>{1, 3, 16, 64, 128}));
  p.Set("Dv", *gen::Pick(std::vector<int64_t>{1, 5, 32, 128}));
  p.Set("eps", *gen::Eps());
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), hk = p.Int("Hk"), dk = p.Int("Dk"), hv = p.Int("Hv"), dv = p.Int("Dv");
  c.Input("conv", p.DType("conv"), {t, 2 * hk * dk + hv * dv}, entry::Values(p));
  c.Output("q_out", p.DType("out"), {t, hk, dk});
  c.Output("k_out", p.DType("out"), {t, hk, dk});
  c.Output("v_out", p.DType("out"), {t, hv, dv});
  gdn_gate::BuildGate(c, t, hv);
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::GdnPostConv(ctx, ws["q_out"], ws["k_out"], ws["v_out"], ws["g_out"], ws["beta_out"], ws["conv"], ws["a"],
                  ws["b"], ws["a_log"], ws["dt_bias"], {ws.params().F32("eps")});
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& q = c.Get("q_out");
  const TensorData& v = c.Get("v_out");
  auto r = oracle::GdnPostConv<S>(q.shape[0], q.shape[1], q.shape[2], v.shape[1], v.shape[2], c.Get("conv").Values(),
                                  c.Get("a").Values(), c.Get("b").Values(), c.Get("a_log").Values(),
                                  c.Get("dt_bias").Values(), c.params.F32("eps"));
  return {{"q_out", r.q}, {"k_out", r.k}, {"v_out", r.v}, {"g_out", r.gate.g}, {"beta_out", r.gate.beta}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  std::vector<OutputSpec> v = {
      {"q_out", Bound("l2 norm per head: f32 sum of squares over Dk, +eps, sqrt, reciprocal, one product "
                      "(running error bound of each step), then the store to q_out's dtype")},
      {"k_out", Bound("as q_out")},
      {"v_out", Exact("a move: widened to f32 (exact), stored to v_out's dtype (round to nearest even)")}};
  for (OutputSpec& o : gdn_gate::GateOutputs()) v.push_back(o);
  return v;
}

Case Part(const std::string& op, const Params& p) {
  Case d;
  d.params = p;
  d.params.op = op;
  return d;
}

// gdn_conv_split (outputs in `dtype`) of the case's conv, run now.
Case Split(const Case& c, vt::DType dtype, const vt::ExecContext& ctx) {
  Case s = Part("gdn_conv_split", c.params);
  s.tensors.push_back(CopyTensor(c.Get("conv"), "conv", Role::kInput));
  for (const char* name : {"q_out", "k_out", "v_out"}) {
    const TensorData& o = c.Get(name);
    s.tensors.push_back(TensorFromValues(name, dtype, o.shape, Role::kOutput,
                                         std::vector<double>(static_cast<std::size_t>(o.Numel()), NAN)));
  }
  return Execute(*FindOp("gdn_conv_split"), s, ctx).after;
}

// The composition the fused op is bit-identical to (op-contracts 3.4):
// gdn_conv_split (to f32: exact for f32/bf16 conv) -> l2_norm(q), l2_norm(k)
// (to q_out's dtype) -> gdn_g_beta; v from gdn_conv_split in v_out's dtype.
ClaimOutcome Composition(const OpSpec&, const Case& c, const vt::ExecContext& ctx, const Execution& fused) {
  const Case split = Split(c, vt::DType::kF32, ctx);
  const Case split_v = Split(c, c.Get("v_out").dtype, ctx);
  std::string d = DiffBytes(fused.after.Get("v_out"), split_v.Get("v_out"), true);
  if (!d.empty()) return ClaimOutcome::Violated("v_out vs gdn_conv_split: " + d);
  for (const char* name : {"q_out", "k_out"}) {
    Case n = Part("l2_norm", c.params);
    n.params.Set("rank", 3);
    n.tensors.push_back(CopyTensor(split.Get(name), "x", Role::kInput));
    const TensorData& o = c.Get(name);
    n.tensors.push_back(TensorFromValues("out", o.dtype, o.shape, Role::kOutput,
                                         std::vector<double>(static_cast<std::size_t>(o.Numel()), NAN)));
    const Execution r = Execute(*FindOp("l2_norm"), n, ctx);
    d = DiffBytes(fused.after.Get(name), r.after.Get("out"), true);
    if (!d.empty()) return ClaimOutcome::Violated(std::string(name) + " vs l2_norm: " + d);
  }
  Case g = Part("gdn_g_beta", c.params);
  for (const char* name : {"a", "b", "a_log", "dt_bias"}) g.tensors.push_back(CopyTensor(c.Get(name), name, Role::kInput));
  for (const char* name : {"g_out", "beta_out"}) g.tensors.push_back(CopyTensor(c.Get(name), name, Role::kOutput));
  const Execution r = Execute(*FindOp("gdn_g_beta"), g, ctx);
  for (const char* name : {"g_out", "beta_out"}) {
    d = DiffBytes(fused.after.Get(name), r.after.Get(name), true);
    if (!d.empty()) return ClaimOutcome::Violated(std::string(name) + " vs gdn_g_beta: " + d);
  }
  return ClaimOutcome::Holds();
}

std::vector<ErrorCase> Errors() {
  return {mut::Dim("conv", 1, 1), mut::Dim("conv", 1, -1), mut::Dim("q_out", 0, 1), mut::Dim("k_out", 1, 1),
          mut::Dim("k_out", 2, -1), mut::Dim("v_out", 0, 1), mut::Dim("g_out", 0, 1), mut::Dim("g_out", 1, 1),
          mut::DType("k_out", vt::DType::kBF16), mut::DType("k_out", vt::DType::kF32),
          mut::DType("v_out", vt::DType::kBF16), mut::DType("v_out", vt::DType::kF32),
          seq::ZeroExtents("conv_no_rows",
                           {{"conv", 0}, {"q_out", 0}, {"k_out", 0}, {"v_out", 0}, {"g_out", 0}, {"beta_out", 0},
                            {"a", 0}, {"b", 0}},
                           "T > 0"),
          seq::ZeroExtents("no_key_channels", {{"q_out", 2}, {"k_out", 2}}, "Dk|q_out"),
          seq::ZeroExtents("no_value_heads", {{"v_out", 1}}, "Hv|v_out")};
}

}  // namespace
}  // namespace local_gdn_post_conv

OpSpec Spec_gdn_post_conv() {
  using namespace local_gdn_post_conv;
  return gdn_gate::GateSpec({
      .name = "gdn_post_conv",
      .dtypes = "cpu: conv f32/bf16 [T,2*Hk*Dk+Hv*Dv]; q_out/k_out [T,Hk,Dk], v_out [T,Hv,Dv] one dtype of "
                "f32/bf16; gate operands as gdn_g_beta",
      .hooks = {DrawMore, Build, Run, Eval<entry::Bounded>, Eval<float>},
      .outputs = Outputs,
      .operands = {entry::Operand("conv", entry::kF32BF16, entry::kContiguous, {2}),
                   entry::Written("q_out", entry::kF32BF16, entry::kContiguous, {3}),
                   entry::Written("k_out", entry::kF32BF16, entry::kContiguous, {3}),
                   entry::Written("v_out", entry::kF32BF16, entry::kContiguous, {3})},
      .scalars = {entry::PositiveFinite("eps")},
      .errors = Errors(),
      .claims = {RowSlice({"conv", "q_out", "k_out", "v_out", "a", "b", "g_out", "beta_out"}),
                 seq::AfterRun("split_l2norm_gate",
                               "gdn_post_conv == gdn_conv_split + l2_norm(q) + l2_norm(k) + gdn_g_beta", nullptr,
                               Composition)},
  });
}

}  // namespace vt::conform
