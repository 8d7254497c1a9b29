// Catalog entry: kda_gated_delta_rule (Kimi Delta Attention's recurrence with a
// per-key-channel decay: fla fused_recurrent_kda / naive_recurrent_kda).
#include "harness/catalog/catalog.h"
#include "harness/catalog/gdn/kda_entry.h"
#include "harness/catalog/gdn/varlen_upstream.h"
#include "harness/golden/upstream_call.h"
#include "oracles/gdn/kda_gated_delta_rule.h"
#include "vt/ops.h"
#include "vt/ops_kda.h"

namespace vt::conform {
namespace local_kda_gated_delta_rule {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

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

// KDA with one decay for all Dk channels of a (token, head) is GDN: with g
// broadcast from channel 0, this op's out and final state == gdn_prefill's
// (g [T,Hv] = that channel), bit for bit - both decay the state row by row
// then take the same dot products. gdn_prefill comes from the wt-gdn branch:
// until the catalog has it, the claim reports not applicable.
Claim EqualDecayIsGdn() {
  Claim claim;
  claim.name = "equal_decay_is_gdn_prefill";
  claim.statement = "g equal across the Dk channels == gdn_prefill with that per-head g (out and state)";
  claim.check = [](const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
    const OpSpec* gdn = FindOp("gdn_prefill");
    if (gdn == nullptr) return ClaimOutcome::NotApplicable("gdn_prefill is not in this catalog (branch wt-gdn)");
    const TensorData& g = c.Get("g");
    const int64_t t = g.shape[0], hv = g.shape[1], dk = g.shape[2];
    const std::vector<double> gv = g.Values();
    std::vector<double> broadcast, per_head;
    for (int64_t r = 0; r < t * hv; ++r) {
      per_head.push_back(gv[static_cast<std::size_t>(r * dk)]);
      for (int64_t i = 0; i < dk; ++i) broadcast.push_back(gv[static_cast<std::size_t>(r * dk)]);
    }
    Case kda = c;
    kda.Get("g") = TensorFromValues("g", vt::DType::kF32, g.shape, Role::kInput, broadcast);
    Case prefill;
    prefill.params = c.params;
    prefill.params.op = "gdn_prefill";
    for (const char* name : {"q", "k", "v", "beta", "state", "query_start_loc", "out"}) {
      prefill.tensors.push_back(CopyTensor(c.Get(name), name, c.Get(name).role));
    }
    prefill.tensors.push_back(TensorFromValues("g", vt::DType::kF32, {t, hv}, Role::kInput, per_head));
    const Execution a = Execute(op, kda, ctx);
    const Execution b = Execute(*gdn, prefill, ctx);
    if (!a.guard_error.empty()) return ClaimOutcome::Violated(a.guard_error);
    if (!b.guard_error.empty()) return ClaimOutcome::Violated("gdn_prefill: " + b.guard_error);
    for (const char* name : {"out", "state"}) {
      const std::string d = DiffBytes(a.after.Get(name), b.after.Get(name), /*any_nan=*/true);
      if (!d.empty()) return ClaimOutcome::Violated(std::string(name) + " vs gdn_prefill: " + d);
    }
    return ClaimOutcome::Holds();
  };
  return claim;
}

}  // namespace
}  // namespace local_kda_gated_delta_rule

OpSpec Spec_kda_gated_delta_rule() {
  using namespace local_kda_gated_delta_rule;
  return kda::KdaSpec({
      .name = "kda_gated_delta_rule",
      .dtypes = "cpu: q/k [T,Hk,Dk], v [T,Hv,Dv] f32/f16/bf16; g [T,Hv,Dk], beta [T,Hv] f32; state [N,Hv,Dv,Dk] "
                "f32 in place; query_start_loc i32 [N+1]; out [T,Hv,Dv] f32/bf16",
      .gate = "g",
      .one_sequence = false,
      .hooks = {nullptr, Build, Run, Eval<double>, Eval<float>},
      .claims = {kda::SequenceSlice(), kda::TwoCalls(), EqualDecayIsGdn()},
  });
}

namespace local_kda_gated_delta_rule {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// The inverse of kda::Golden (vt-fuzz --upstream): the case as the
// "kda_gated_delta_rule" runner key's call - fla's fused_recurrent_kda over
// the varlen batch in a NULL-block cache (vt_regen/live.py, ops_ssm's
// kda_recurrent_run). fused_recurrent_kda allocates its output like k and
// indexes it with the value heads and dims: only Hk == Hv and Dk == Dv go
// through it (ops_ssm.py). Cost as gdn_prefill's (the same kernel, IS_KDA):
// bounded as gdn_prefill's (varlen_upstream.h).
UpstreamCall UpstreamKda(const Case& c) {
  const TensorData& q = c.Get("q");
  const TensorData& v = c.Get("v");
  if (q.shape[1] != v.shape[1] || q.shape[2] != v.shape[2]) {
    throw GoldenUnsupported("Hk != Hv or Dk != Dv (fused_recurrent_kda allocates its output like k)");
  }
  return gdn_entry::UpstreamVarlenRecurrence(c, "kda_gated_delta_rule", Json::object());
}

}  // namespace
}  // namespace local_kda_gated_delta_rule

UpstreamMap UpstreamMap_kda_gated_delta_rule() {
  using namespace local_kda_gated_delta_rule;
  return {"kda_gated_delta_rule", "kda_gated_delta_rule", UpstreamKda};
}

}  // namespace vt::conform
