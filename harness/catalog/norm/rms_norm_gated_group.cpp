// Catalog entry: rms_norm_gated_group (Mamba2 Mixer2RMSNormGated.forward_native:
// gate first, grouped RMS norm, cast to the input dtype before the weight).
#include "harness/catalog/catalog.h"
#include "harness/catalog/norm/norm_entry.h"
#include "oracles/norm/rms_norm_gated_group.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_rms_norm_gated_group {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  norm_entry::DrawRankedRows(p, tier, "L");
  p.Set("n_groups", *gen::Pick(std::vector<int64_t>{1, 1, 2, 4, 8}));
  p.Set("group", *gen::Width(tier));
}

std::vector<int64_t> Shape(const Params& p) {
  const int64_t hidden = p.Int("n_groups") * p.Int("group");
  if (p.Int("rank") == 3) return {p.Int("T"), p.Int("L"), hidden};
  return {p.Int("T"), hidden};
}

void Build(Case& c) {
  const Params& p = c.params;
  const auto shape = Shape(p);
  c.Input("x", p.DType("x"), shape, entry::Values(p));
  c.Input("gate", p.DType("gate"), shape, Fill::Normal(0.0, 2.0));
  if (p.Str("w") != "none") c.Input("weight", p.DType("w"), {shape.back()}, Fill::Uniform(0.5, 1.5));
  c.Output("out", p.DType("out"), shape);
}

vt::RmsNormGatedGroupArgs Args(const Params& p) {
  vt::RmsNormGatedGroupArgs a;
  a.eps = p.F32("eps");
  a.n_groups = static_cast<int>(p.Int("n_groups"));
  a.tp_world_size = p.Has("tp_world_size") ? static_cast<int>(p.Int("tp_world_size")) : 1;
  return a;
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::RmsNormGatedGroup(ctx, ws["out"], ws["x"], ws["gate"], ws.Find("weight"), Args(ws.params()));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& x = c.Get("x");
  const int64_t hidden = x.shape.back();
  const TensorData* w = c.Find("weight");
  const std::vector<double> wv = w != nullptr ? w->Values() : std::vector<double>{};
  return {{"out", oracle::RmsNormGatedGroup<S>(x.Numel() / hidden, hidden, x.Values(), entry::Vals(c, "gate"),
                                               w != nullptr ? &wv : nullptr, static_cast<int>(c.params.Int("n_groups")),
                                               c.params.F32("eps"), x.fmt)}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Bound("silu via expf (1 ulp), product, per-group f32 mean of squares, rsqrt, the "
                        "cast through x's dtype (interval rule), weight product: running bound")}};
}

// Without a weight the op is x * silu(gate) cast through x's dtype: the same
// f32 product moe_silu_mul forms (operands commute), stored once when the
// cast is a no-op (x f32) or the same rounding (x and out one dtype).
Case AsSiluMul(const Case& c) {
  Case d;
  d.params = c.params;
  d.params.op = "moe_silu_mul";
  d.tensors.push_back(CopyTensor(c.Get("gate"), "gate", Role::kInput));
  d.tensors.push_back(CopyTensor(c.Get("x"), "up", Role::kInput));
  d.tensors.push_back(CopyTensor(c.Get("out"), "out", Role::kOutput));
  return d;
}

// One group of n_groups == that group's columns normalised alone (n_groups = 1).
ClaimOutcome GroupAlone(const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
  const int64_t groups = c.params.Int("n_groups");
  const TensorData& x = c.Get("x");
  const int64_t hidden = x.shape.back(), rows = x.Numel() / hidden, gs = hidden / groups;
  const int64_t g = static_cast<int64_t>(c.params.seed % static_cast<uint64_t>(groups));
  auto columns = [&](const TensorData& t, Role role) {
    const auto v = t.Values();
    std::vector<double> part;
    const int64_t r_count = t.shape.size() == 1 ? 1 : rows;
    for (int64_t r = 0; r < r_count; ++r) {
      for (int64_t j = g * gs; j < (g + 1) * gs; ++j) part.push_back(v[static_cast<std::size_t>(r * hidden + j)]);
    }
    std::vector<int64_t> shape = t.shape;
    shape.back() = gs;
    return TensorFromValues(t.name, t.dtype, shape, role, part);
  };
  Case one = c;
  one.params.Set("n_groups", 1);
  for (TensorData& t : one.tensors) {
    if (t.role == Role::kOutput) {
      std::vector<int64_t> shape = t.shape;
      shape.back() = gs;
      const std::string name = t.name;
      t = TensorData{};
      t.name = name;
      t.dtype = c.Get(name).dtype;
      t.fmt = c.Get(name).fmt;
      t.shape = shape;
      t.role = Role::kOutput;
      t.SetContiguous();
      MaterializeTensor(t, c.params.seed);
    } else {
      t = columns(t, t.role);
    }
  }
  const Execution full = Execute(op, c, ctx);
  const Execution part = Execute(op, one, ctx);
  const std::string d = DiffBytes(columns(full.after.Get("out"), Role::kOutput), part.after.Get("out"));
  return d.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated("group " + std::to_string(g) + ": " + d);
}

}  // namespace
}  // namespace local_rms_norm_gated_group

OpSpec Spec_rms_norm_gated_group() {
  using namespace local_rms_norm_gated_group;
  OpSpec s = norm_entry::NormSpec({
      .name = "rms_norm_gated_group",
      .keys = {entry::DrawIn("x"), entry::DrawIn("gate"),
               entry::DrawOneOf("w", {"none", "f32", "f16", "bf16"}), entry::DrawOut("out")},
      .dtypes = "cpu: x,gate f32/f16/bf16 (rank 2 or 3); weight optional f32/f16/bf16; out f32/bf16",
      .draw = Draw,
      .fns = {Build, Run, Eval<entry::Bounded>, Eval<float>, Outputs},
  });
  s.contract = {{entry::Operand("x", entry::kFloatIn, entry::kContiguous, {2, 3}), entry::Operand("gate", entry::kFloatIn), entry::Operand("weight", entry::kFloatIn, entry::kContiguous, {1}), entry::Written("out", entry::kFloatOut)}, {entry::PositiveFinite("eps")}};
  // gate is inside the group's sum (v = x * silu(gate)): row-coupled like x.
  s.values.specials = {{"x", true}, {"gate", true}, {"weight"}};
  s.values.edges = [](const Params& p) {
    std::vector<ValueBand> v = ExpBands("gate");
    // silu(24) == 24.0f and silu(48) == 48.0f: without a weight the output is
    // round_through(x.dtype, 24 * x), an exact tie of f16 whenever x's
    // mantissa is odd and below 0x555 - the only way to reach f16 ties here.
    // x in +-[1, 1.33]: every f16 there has a significand below 0x555, so
    // half of those products are ties.
    if (p.Str("w") == "none") {
      v.insert(v.end(), 4, ValueBand{"gate", 24.0, 24.0});
      v.push_back({"gate", 48.0, 48.0});
      for (const ValueBand& b : Symmetric("x", 1.0, 1.33)) v.push_back(b);
    }
    return v;
  };
  s.errors = {mut::Arg("n_groups", 0),         mut::Arg("n_groups", -2),
              mut::Arg("n_groups", 3 * 1021),  mut::Arg("eps", 0.0),
              mut::Arg("eps", -1e-5),          mut::DType("out", vt::DType::kF16),
              mut::DType("gate", vt::DType::kU8), mut::DType("weight", vt::DType::kI32),
              mut::Dim("weight", 0, 1),        mut::Dim("gate", 0, 1),
              mut::Dim("out", 1, -1),          mut::AddDim("x"),
              mut::Strided("x"),               mut::Strided("gate"),
              mut::Strided("out"),             mut::NullData("x"),
              mut::OtherDevice("gate"),        mut::Alias("out", "gate"),
              mut::EmptyInner("x"),
              {"tp_world_size_2",
               [](Case& c) {
                 c.params.Set("tp_world_size", 2);
                 return true;
               },
               "tp_world_size"}};
  s.claims = {SameAs("no_weight_is_silu_mul", "without a weight == moe_silu_mul(gate, up = x)",
                     [](const Params& p) {
                       return p.Str("w") == "none" && (p.Str("x") == "f32" || p.Str("x") == p.Str("out"));
                     },
                     "moe_silu_mul", AsSiluMul, {{"out", "out"}}),
              {"group_alone", "group g of n_groups == its columns normalised with n_groups = 1",
               [](const Params& p) { return p.Str("w") != "none" && p.Int("n_groups") > 1; }, GroupAlone},
              RowSlice({"x", "gate", "out"})};
  return s;
}

}  // namespace vt::conform
