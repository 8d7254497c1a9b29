#include "harness/catalog/mamba/mamba_entry.h"

#include <limits>

#include "harness/golden/adapter.h"

namespace vt::conform::mamba {

namespace local_mamba_entry {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void DrawDtypes(Params& p, Tier) {
  p.Set("x", *gen::FloatIn());
  p.Set("dt", *gen::FloatIn());
  p.Set("out", *gen::FloatOut());
  p.Set("state", *gen::FloatOut());
}

}  // namespace
}  // namespace local_mamba_entry

OpSpec MambaSpec(MambaOp m) {
  using namespace local_mamba_entry;
  OpSpec s = seq::Basics(m.name, "mamba", m.dtypes, m.hooks, DrawDtypes);
  s.oracle = m.hooks.oracle;
  s.oracle_f32 = m.hooks.definition;
  s.outputs = m.outputs;
  using entry::kContiguous;
  using entry::Operand;
  std::vector<OperandRule> operands = {
      Operand("x", entry::kFloatIn, kContiguous, {3}),    Operand("dt", entry::kFloatIn, kContiguous, {2}),
      Operand("A", entry::kF32, kContiguous, {1}),        Operand("B", entry::kFloatIn, kContiguous, {3}),
      Operand("C", entry::kFloatIn, kContiguous, {3}),    Operand("D", entry::kF32, kContiguous, m.d_ranks),
      Operand("z", entry::kFloatIn, kContiguous, {3}),    Operand("dt_bias", entry::kF32, kContiguous, {1})};
  seq::Append(operands, m.operands);
  s.contract = {operands, {}};
  s.errors = {
      seq::SetArg("tp_world_size_2", "tp", 2, "tp_world_size"),
      seq::Rebuilt("head_dim_0", m.x_shape, [](Params& p) { p.Set("P", 0); return true; }, m.hooks.build),
      seq::Rebuilt("groups_not_dividing_heads", "G > 0 dividing H",
                   [](Params& p) { p.Set("G", p.Int("H") + 1); return true; }, m.hooks.build),
      seq::Rebuilt("state_dim_0", "N > 0", [](Params& p) { p.Set("N", 0); return true; }, m.hooks.build),
      mut::Dim("dt", 1, 1), mut::Dim("dt", 0, 1), mut::Dim("A", 0, 1), mut::Dim("B", 0, 1),
      mut::Dim("C", 2, 1), mut::Dim("out", 2, 1), mut::Dim("D", 0, 1), mut::Dim("dt_bias", 0, 1)};
  seq::Append(s.errors, m.errors);
  s.claims = m.claims;
  s.goldens = m.goldens;
  return s;
}

void DrawHeads(Params& p) {
  using namespace local_mamba_entry;
  const int64_t h = *gen::Pick(std::vector<int64_t>{1, 2, 4, 3, 8});
  p.Set("H", h);
  std::vector<int64_t> groups;
  for (int64_t g = 1; g <= h; ++g) {
    if (h % g == 0) groups.push_back(g);
  }
  p.Set("G", *gen::Pick(groups));
}

void DrawOptions(Params& p) {
  using namespace local_mamba_entry;
  p.Set("z", *gen::Flag());
  p.Set("dt_bias", *gen::Flag());
  p.Set("softplus", *gen::Flag());
}

Fill DtFill(const Params& p) {
  using namespace local_mamba_entry;
  const std::string d = p.Str("dist");
  const bool sp = p.Flag("softplus");
  // why: raw dt feeds softplus (so it may be negative) or is used as is.
  if (d == "large_dt") return sp ? Fill::Normal(4.0, 1.0) : Fill::Uniform(2.0, 6.0);
  // Around softplus' guard at 20; with A <= -4 exp(dt A) underflows in f32.
  if (d == "overflow") return Fill::Uniform(18.0, 24.0);
  return sp ? Fill::Normal(-1.0, 1.0) : Fill::Uniform(0.0, 0.5);
}

Fill AFill(const Params& p) {
  using namespace local_mamba_entry;
  const std::string d = p.Str("dist");
  if (d == "small_a") return Fill::Uniform(-1e-3, -1e-5);  // almost no decay: long memory
  if (d == "overflow") return Fill::Uniform(-16.0, -4.0);
  return Fill::Uniform(-4.0, -0.5);  // Mamba2's A = -exp(A_log), A_log ~ U(log 1, log 16)-ish
}

Fill BiasFill(const Params& p) {
  using namespace local_mamba_entry;
  return p.Flag("softplus") ? Fill::Normal(0.0, 0.5) : Fill::Uniform(0.0, 0.2);
}

void AddInputs(Case& c, int64_t rows, const std::vector<int64_t>& d_shape) {
  using namespace local_mamba_entry;
  const Params& p = c.params;
  const int64_t H = p.Int("H"), G = p.Int("G"), P = p.Int("P"), N = p.Int("N");
  const vt::DType act = p.DType("x");
  c.Input("x", act, {rows, H, P}, Fill::Normal(0.0, 1.0));
  c.Input("dt", p.DType("dt"), {rows, H}, DtFill(p));
  c.Input("A", vt::DType::kF32, {H}, AFill(p));
  c.Input("B", act, {rows, G, N}, Fill::Normal(0.0, 1.0));
  c.Input("C", act, {rows, G, N}, Fill::Normal(0.0, 1.0));
  if (!d_shape.empty()) c.Input("D", vt::DType::kF32, d_shape, Fill::Normal(0.0, 1.0));
  if (p.Flag("z")) c.Input("z", act, {rows, H, P}, Fill::Normal(0.0, 1.0));
  if (p.Flag("dt_bias")) c.Input("dt_bias", vt::DType::kF32, {H}, BiasFill(p));
}

std::vector<double> ValuesOr(const Case& c, const std::string& name) {
  using namespace local_mamba_entry;
  const TensorData* t = c.Find(name);
  return t == nullptr ? std::vector<double>() : t->Values();
}

vt::Mamba2Args Args(const Params& p) {
  using namespace local_mamba_entry;
  vt::Mamba2Args a;
  if (p.Has("cs")) a.chunk_size = p.Int("cs");
  a.dt_softplus = p.Flag("softplus");
  if (p.Has("dt_min")) a.dt_min = p.F32("dt_min");
  a.dt_max = p.Has("dt_max") ? p.F32("dt_max") : std::numeric_limits<float>::infinity();
  if (p.Has("tp")) a.tp_world_size = static_cast<int>(p.Int("tp"));
  return a;
}

void RequireOneActivationDtype(const GoldenCase& g, const std::vector<std::string>& names) {
  using namespace local_mamba_entry;
  const vt::DType x = g.Get("x").dtype;
  bool one = !g.Has("z") || g.Get("z").dtype == x;
  for (const std::string& n : names) one = one && g.Get(n).dtype == x;
  if (!one) throw GoldenUnsupported("x, B, C, z of different dtypes (the catalog draws one activation dtype)");
}

void SetGoldenDtypes(Params& p, const GoldenCase& g, const std::string& state) {
  using namespace local_mamba_entry;
  p.Set("x", DTypeKey(g.Get("x")));
  p.Set("dt", DTypeKey(g.Get("dt")));
  p.Set("out", DTypeKey(GoldenOutputLike(g, "out", "out")));
  p.Set("state", DTypeKey(g.Get(state)));
}

void SetGoldenShape(Params& p, const GoldenCase& g, Json d) {
  using namespace local_mamba_entry;
  const TensorData& x = g.Get("x");
  const TensorData& B = g.Get("B");
  p.Set("H", x.shape[1]);
  p.Set("G", B.shape[1]);
  p.Set("P", x.shape[2]);
  p.Set("N", B.shape[2]);
  p.Set("D", std::move(d));
  p.Set("z", g.Has("z") ? 1 : 0);
  p.Set("dt_bias", g.Has("dt_bias") ? 1 : 0);
  p.Set("softplus", g.ArgBool("dt_softplus", false) ? 1 : 0);
}

}  // namespace vt::conform::mamba
