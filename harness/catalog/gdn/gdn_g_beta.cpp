// Catalog entry: gdn_g_beta (the GDN gate of Qwen3-Next: fla fused_gdn_gating,
// g = -exp(A_log) * softplus(a + dt_bias), beta = sigmoid(b)).
#include "harness/catalog/gdn/gdn_gate_entry.h"
#include "oracles/gdn/gdn_g_beta.h"
#include "vt/ops.h"
#include "vt/ops_gdn_glue.h"

namespace vt::conform {
namespace {

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("gdn_g_beta");
    gdn_gate::DrawGate(p, tier);
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) { gdn_gate::BuildGate(c, c.params.Int("T"), c.params.Int("Hv")); }

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::GdnGBeta(ctx, ws["g_out"], ws["beta_out"], ws["a"], ws["b"], ws["a_log"], ws["dt_bias"]);
}

std::vector<OutputSpec> Outputs(const Case&) { return gdn_gate::GateOutputs(); }

}  // namespace

OpSpec Spec_gdn_g_beta() {
  OpSpec s;
  s.name = "gdn_g_beta";
  s.family = "gdn";
  s.dtypes = "cpu: a/b f32/bf16 [T,Hv] (row stride free); a_log/dt_bias f32 [Hv]; g_out/beta_out f32 [T,Hv]";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(gdn_gate::EvalGate<entry::Bounded>);
  s.oracle_f32 = entry::F32(gdn_gate::EvalGate<float>);
  s.outputs = Outputs;
  s.contract = {gdn_gate::GateOperands(), {}};
  s.values.specials = {{"a"}, {"b"}};
  s.values.edges = gdn_gate::GateEdges;
  s.errors = gdn_gate::GateShapeErrors();
  // Hv = 0: every [.., Hv] extent 0 at once, so that only "Hv > 0" breaks.
  s.errors.push_back(mut::EmptyInner("g_out"));
  s.claims = {RowSlice({"a", "b", "g_out", "beta_out"})};
  return s;
}

}  // namespace vt::conform
