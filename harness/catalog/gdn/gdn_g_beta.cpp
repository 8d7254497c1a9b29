// Catalog entry: gdn_g_beta (the GDN gate of Qwen3-Next: fla fused_gdn_gating,
// g = -exp(A_log) * softplus(a + dt_bias), beta = sigmoid(b)).
#include "harness/catalog/gdn/gdn_gate_entry.h"
#include "oracles/gdn/gdn_g_beta.h"
#include "vt/ops.h"
#include "vt/ops_gdn_glue.h"

namespace vt::conform {
namespace local_gdn_g_beta {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Build(Case& c) { gdn_gate::BuildGate(c, c.params.Int("T"), c.params.Int("Hv")); }

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::GdnGBeta(ctx, ws["g_out"], ws["beta_out"], ws["a"], ws["b"], ws["a_log"], ws["dt_bias"]);
}

std::vector<OutputSpec> Outputs(const Case&) { return gdn_gate::GateOutputs(); }

}  // namespace
}  // namespace local_gdn_g_beta

OpSpec Spec_gdn_g_beta() {
  using namespace local_gdn_g_beta;
  return gdn_gate::GateSpec({
      .name = "gdn_g_beta",
      .dtypes = "cpu: a/b f32/bf16 [T,Hv] (row stride free); a_log/dt_bias f32 [Hv]; g_out/beta_out f32 [T,Hv]",
      .hooks = {nullptr, Build, Run, gdn_gate::EvalGate<entry::Bounded>, gdn_gate::EvalGate<float>},
      .outputs = Outputs,
      // Hv = 0: every [.., Hv] extent 0 at once, so that only "Hv > 0" breaks.
      .errors = {mut::EmptyInner("g_out")},
      .claims = {RowSlice({"a", "b", "g_out", "beta_out"})},
  });
}

}  // namespace vt::conform
