// Catalog entry: moe_combine (the fused-MoE weighted combine of the k expert
// outputs per token, routed scaling, plus the shared expert). docs/ops/moe.md.
#include <cmath>

#include "harness/catalog/catalog.h"
#include "harness/catalog/moe/moe_route_slice.h"
#include "harness/catalog/seq_entry.h"
#include "oracles/moe/moe_combine.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_moe_combine {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

using entry::Bounded;

void Draw(Params& p, Tier tier) {
  p.Set("expert_out", *gen::FloatIn());
  p.Set("out", *gen::FloatOut());
  p.Set("shared", *gen::Pick(std::vector<std::string>{"none", "f32", "bf16", "f16"}));
  const int64_t k = *gen::Pick(std::vector<int64_t>{2, 1, 3, 4, 8});
  const int64_t h = *gen::Width(tier);
  int64_t t = *gen::Rows(tier);
  // Keep a case near 2^18 expert values at most (the ci tier's time budget);
  // the row and width draws stay adversarial below that.
  while (t > 1 && t * k * h > (int64_t{1} << 18)) t /= 2;
  p.Set("T", t);
  p.Set("K", k);
  p.Set("H", h);
  p.Set("routed_scale", *gen::Pick(std::vector<double>{1.0, 2.5, 0.5, -1.75}));
  p.Set("scale", *gen::Scale());
  // router: the weights of a softmax top-k router over k + 3 experts
  // (moe_route_slice.h), T <= H - what vLLM's moe_block chain can be driven
  // to produce (vt-fuzz --upstream); uniform: any weights, some negative.
  // With router weights, expert_out f32/bf16 and the shared term none or of
  // expert_out's dtype (the chain's intermediates), so that most such draws
  // are the chain's.
  const std::string weights = *gen::Pick(std::vector<std::string>{"uniform", "uniform", "uniform", "router"});
  p.Set("weights", weights);
  if (weights == "router") {
    if (t > h) p.Set("T", h);
    const std::string eo = *gen::Pick(std::vector<std::string>{"f32", "bf16"});
    p.Set("expert_out", eo);
    p.Set("shared", *gen::Pick(std::vector<std::string>{"none", eo}));
  }
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), k = p.Int("K"), h = p.Int("H");
  c.Input("expert_out", p.DType("expert_out"), {t, k, h}, entry::Values(p));
  // Router weights: mostly in (0, 1), some negative (the op does not care).
  TensorData& w = c.Input("weights", vt::DType::kF32, {t, k}, Fill::Uniform(-0.25, 1.0));
  if (p.Has("weights") && p.Str("weights") == "router") {
    const auto route = moe_slice::Route(p.seed, t, k);
    w.fill = Fill::Const(0.0);
    w.overrides.clear();
    for (int64_t i = 0; i < t * k; ++i) w.overrides.emplace_back(i, route.weights[static_cast<size_t>(i)]);
  }
  if (p.Str("shared") != "none") c.Input("shared", p.DType("shared"), {t, h}, entry::Values(p));
  c.Output("out", p.DType("out"), {t, h});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::MoeCombine(ctx, ws["out"], ws["expert_out"], ws["weights"], ws.Find("shared"),
                 ws.params().F32("routed_scale"));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& x = c.Get("expert_out");
  const TensorData* sh = c.Find("shared");
  const std::vector<double> shared = sh != nullptr ? sh->Values() : std::vector<double>{};
  return {{"out", oracle::MoeCombine<S>(x.shape[0], x.shape[1], x.shape[2], x.Values(), entry::Vals(c, "weights"),
                                        sh != nullptr ? &shared : nullptr, c.params.F32("routed_scale"),
                                        c.Get("out").fmt)}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Bound("k f32 products and an ordered f32 sum, one product by routed_scale, one add of "
                        "shared: running error bound of each step, then one rounding to out "
                        "(docs/ops/moe.md)")}};
}

// k = 1 with weight 1 (no shared, scale 1) is a copy rounded to out:
// 0 + 1 * x = x exactly in f32 (-0 becomes +0; any NaN stays a NaN).
Claim UnitCopy() {
  Claim cl;
  cl.name = "unit_copy";
  cl.statement = "k = 1, weight 1, no shared, scale 1: out == expert_out[:, 0, :] rounded to out's dtype";
  cl.check = [](const OpSpec& op, const Case& full, const vt::ExecContext& ctx) {
    const TensorData& x = full.Get("expert_out");
    const int64_t t = x.shape[0], k = x.shape[1], h = x.shape[2];
    const auto xv = x.Values();
    std::vector<double> first;
    for (int64_t r = 0; r < t; ++r) {
      for (int64_t c = 0; c < h; ++c) first.push_back(xv[static_cast<size_t>(r * k * h + c)]);
    }
    Case d;
    d.params = full.params;
    d.params.Set("K", 1);
    d.params.Set("shared", "none");
    d.params.Set("routed_scale", 1.0);
    d.tensors.push_back(TensorFromValues("expert_out", x.dtype, {t, 1, h}, Role::kInput, first));
    d.tensors.push_back(TensorFromValues("weights", vt::DType::kF32, {t, 1}, Role::kInput,
                                         std::vector<double>(static_cast<size_t>(t), 1.0)));
    d.tensors.push_back(CopyTensor(full.Get("out"), "out", Role::kOutput));
    const Execution run = Execute(op, d, ctx);
    if (!run.guard_error.empty()) return ClaimOutcome::Violated(run.guard_error);
    const TensorData& out = run.after.Get("out");
    // 0.0f + 1 * x is x, except that -0 becomes +0.
    for (double& v : first) v = v == 0.0 ? 0.0 : v;
    const TensorData want = TensorFromValues("out", out.dtype, out.shape, Role::kOutput, first);
    const std::string diff = DiffBytes(out, want, /*any_nan=*/true);
    return diff.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated("not a copy: " + diff);
  };
  return cl;
}

// routed_scale is one multiply of the finished routed sum (not folded into
// each weight). Without a shared term that is, bit for bit, the scale-1
// combine into an f32 buffer followed by mul_scalar(routed_scale) into out.
Case ScaleOneF32(const Case& c) {
  Case d = c;
  d.params.Set("routed_scale", 1.0);
  d.params.Set("out", "f32");
  d.Get("out") = TensorFromValues("out", vt::DType::kF32, c.Get("out").shape, Role::kOutput,
                                  std::vector<double>(static_cast<size_t>(c.Get("out").Numel()), 0.0));
  return d;
}

Claim ScaleAfterSum() {
  Claim cl;
  cl.name = "scale_after_sum";
  cl.statement = "no shared: out == mul_scalar(routed_scale) of the scale-1 combine into f32";
  cl.applies = [](const Params& p) { return p.Str("shared") == "none"; };
  cl.check = [](const OpSpec& op, const Case& full, const vt::ExecContext& ctx) {
    const Execution a = Execute(op, full, ctx);
    const Execution b = Execute(op, ScaleOneF32(full), ctx);
    if (!a.guard_error.empty()) return ClaimOutcome::Violated(a.guard_error);
    if (!b.guard_error.empty()) return ClaimOutcome::Violated(b.guard_error);
    const OpSpec* mul = FindOp("mul_scalar");
    if (mul == nullptr) throw std::logic_error("claim needs mul_scalar");
    Case m;
    m.params = Params("mul_scalar");
    m.params.Set("x", "f32");
    m.params.Set("out", full.params.Str("out"));
    m.params.Set("s", full.params.Num("routed_scale"));
    m.params.seed = full.params.seed;
    m.tensors.push_back(CopyTensor(b.after.Get("out"), "x", Role::kInput));
    m.tensors.push_back(CopyTensor(full.Get("out"), "out", Role::kOutput));
    const Execution c = Execute(*mul, m, ctx);
    if (!c.guard_error.empty()) return ClaimOutcome::Violated("mul_scalar: " + c.guard_error);
    const std::string diff = DiffBytes(a.after.Get("out"), c.after.Get("out"), /*any_nan=*/true);
    return diff.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated(diff);
  };
  return cl;
}

}  // namespace
}  // namespace local_moe_combine

OpSpec Spec_moe_combine() {
  using namespace local_moe_combine;
  OpSpec s = seq::EvaluatedSpec(
      {.name = "moe_combine", .family = "moe",
       .dtypes = "cpu: expert_out f32/f16/bf16 [T,K,H]; weights f32 [T,K]; shared f32/f16/bf16 [T,H]; out f32/bf16 [T,H]",
       .draw = Draw, .build = Build, .run = Run, .truth = Eval<entry::Bounded>, .f32 = Eval<float>, .outputs = Outputs});
  s.contract = {{entry::Operand("expert_out", entry::kFloatIn, entry::kContiguous, {3}),
                 entry::Operand("weights", entry::kF32, entry::kContiguous, {2}),
                 entry::Operand("shared", entry::kFloatIn, entry::kContiguous, {2}),
                 entry::Written("out", entry::kFloatOut, entry::kContiguous, {2})},
                {entry::Finite("routed_scale")}};
  s.values.specials = {{"expert_out"}, {"weights"}, {"shared"}};
  s.errors = {mut::Dim("weights", 0, 1), mut::Dim("weights", 1, 1), mut::Dim("out", 0, 1),
              mut::Dim("out", 1, -1),    mut::Dim("shared", 0, -1), mut::Dim("shared", 1, 1),
              mut::Dim("expert_out", 1, 1)};
  s.claims = {RowSlice({"expert_out", "weights", "shared", "out"}), UnitCopy(), ScaleAfterSum()};
  return s;
}

}  // namespace vt::conform
