// Catalog entry: kda_gated_delta_rule (Kimi Delta Attention's recurrence with a
// per-key-channel decay: fla fused_recurrent_kda / naive_recurrent_kda).
#include "harness/catalog/gdn/kda_entry.h"
#include "oracles/gdn/kda_gated_delta_rule.h"
#include "vt/ops.h"
#include "vt/ops_kda.h"

namespace vt::conform {
namespace {

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("kda_gated_delta_rule");
    kda::Draw(p, tier, /*one_sequence=*/false);
    p.seed = *gen::Seed();
    return p;
  });
}

// Log decays in [-1, 0]: per-channel factors between 0.37 and 1, distinct per
// channel so that a decay read from the wrong channel shows.
void Build(Case& c) { kda::Build(c, "g", Fill::Uniform(-1.0, 0.0)); }

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::KdaGatedDeltaRule(ctx, ws["out"], ws["q"], ws["k"], ws["v"], ws["g"], ws["beta"], ws["state"],
                        ws["query_start_loc"], {ws.params().F32("scale")});
}

template <class S>
oracle::KdaResult<S> Eval(const Case& c) {
  return oracle::KdaGatedDeltaRule<S>(kda::Dims(c), kda::Loc(c), c.Get("q").Values(), c.Get("k").Values(),
                                      c.Get("v").Values(), entry::Inputs<S>(c.Get("g").Values()),
                                      c.Get("beta").Values(), c.Get("state").Values(), c.params.F32("scale"));
}

OracleResult Oracle(const Case& c) { return kda::Want(Eval<double>(c), Eval<float>(c), c); }
std::map<std::string, std::vector<double>> OracleF32(const Case& c) { return kda::F32Values(Eval<float>(c)); }
std::vector<OutputSpec> Outputs(const Case&) { return kda::Outputs(); }

}  // namespace

OpSpec Spec_kda_gated_delta_rule() {
  OpSpec s;
  s.name = "kda_gated_delta_rule";
  s.family = "gdn";
  s.dtypes = "cpu: q/k [T,Hk,Dk], v [T,Hv,Dv] f32/f16/bf16; g [T,Hv,Dk], beta [T,Hv] f32; state [N,Hv,Dv,Dk] "
             "f32 in place; query_start_loc i32 [N+1]; out [T,Hv,Dv] f32/bf16";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = Oracle;
  s.oracle_f32 = OracleF32;
  s.outputs = Outputs;
  s.contract = {kda::Operands("g"), {entry::PositiveFinite("scale")}};
  s.errors = kda::ShapeErrors("g");
  for (ErrorCase& e : kda::MetadataErrors(/*multi=*/true)) s.errors.push_back(std::move(e));
  s.claims = {kda::SequenceSlice(), kda::TwoCalls()};
  // TODO(integrator): "g equal across the Dk channels == gdn_prefill" once
  // gdn_prefill (branch wt-gdn) is in the catalog; see docs/ops/kda.md.
  return s;
}

}  // namespace vt::conform
