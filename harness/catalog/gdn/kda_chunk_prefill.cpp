// Catalog entry: kda_chunk_prefill (KDA prefill with the gate fused in front:
// fla kda gate g = -exp(A_log) * softplus(g_raw + dt_bias), then the KDA rule).
#include "harness/catalog/gdn/kda_entry.h"
#include "harness/catalog/gdn/varlen_upstream.h"
#include "harness/golden/upstream_call.h"
#include "oracles/gdn/kda_chunk_prefill.h"
#include "vt/ops.h"
#include "vt/ops_kda.h"

namespace vt::conform {
namespace local_kda_chunk_prefill {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// 0: dt_bias empty ([0]).
void DrawBias(Params& p, Tier) { p.Set("bias", *gen::Flag()); }

void Build(Case& c) {
  // g_raw around -2: softplus between ~0.02 and ~2, decays exp(-exp(a_log) sp)
  // from near 1 to ~0.1; the values knob adds g_raw past the guard at 20.
  kda::Build(c, "g_raw", Fill::Normal(-2.0, 1.5));
  const int64_t hv = c.Get("v").shape[1], dk = c.Get("q").shape[2];
  c.Input("a_log", vt::DType::kF32, {hv}, Fill::Uniform(-1.5, 0.5));
  c.Input("dt_bias", vt::DType::kF32, {c.params.Flag("bias") ? hv * dk : 0}, Fill::Normal(0.0, 1.0));
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::KdaChunkPrefill(ctx, ws["out"], ws["q"], ws["k"], ws["v"], ws["g_raw"], ws["beta"], ws["a_log"],
                      ws["dt_bias"], ws["state"], ws["query_start_loc"], {ws.params().F32("scale")});
}

template <class S>
oracle::KdaResult<S> Eval(const Case& c) {
  return oracle::KdaChunkPrefill<S>(kda::Dims(c), c.Get("q").shape[0], c.Get("q").Values(), c.Get("k").Values(),
                                    c.Get("v").Values(), c.Get("g_raw").Values(), c.Get("beta").Values(),
                                    c.Get("a_log").Values(), c.Get("dt_bias").Values(), c.Get("state").Values(),
                                    c.params.F32("scale"));
}

// The gate evaluated alone (in f32, the gate's definition: oracle<float>),
// then kda_gated_delta_rule on it.
Case GateThenRecurrence(const Case& c) {
  const TensorData& raw = c.Get("g_raw");
  const auto g = oracle::KdaGate<float>(raw.shape[0], raw.shape[1], raw.shape[2], raw.Values(),
                                        c.Get("a_log").Values(), c.Get("dt_bias").Values());
  Case d;
  d.params = c.params;
  d.params.op = "kda_gated_delta_rule";
  for (const char* name : {"q", "k", "v", "beta", "state", "query_start_loc", "out"}) {
    d.tensors.push_back(CopyTensor(c.Get(name), name, c.Get(name).role));
  }
  d.tensors.push_back(
      TensorFromValues("g", vt::DType::kF32, raw.shape, Role::kInput, std::vector<double>(g.begin(), g.end())));
  return d;
}

// Two sequences (state [2,...], query_start_loc [3] = {0, second, T}): what
// kda_gated_delta_rule takes, refused here (one sequence) for `expect`.
ErrorCase TwoSequences(const std::string& name, int64_t past_t, const std::string& expect) {
  return {name,
          [past_t](Case& c) {
            TensorData& st = c.Get("state");
            st.shape[0] = 2;
            st.SetContiguous();
            TensorData& loc = c.Get("query_start_loc");
            const int64_t t = c.Get("q").shape[0];
            loc.shape = {3};
            loc.SetContiguous();
            loc.overrides = {{0, 0.0}, {1, static_cast<double>(t + past_t)}, {2, static_cast<double>(t)}};
            return true;
          },
          expect};
}

std::vector<ErrorCase> Errors() {
  return {mut::Dim("a_log", 0, 1),
          // dt_bias neither [Hv*Dk] nor empty.
          {"dt_bias_wrong_extent",
           [](Case& c) {
             TensorData& b = c.Get("dt_bias");
             b.shape = {c.Get("v").shape[1] * c.Get("q").shape[2] + 1};
             b.SetContiguous();
             return true;
           },
           "dt_bias"},
          // {0, T, T}: valid for kda_gated_delta_rule, one sequence too many here.
          TwoSequences("state_two_sequences", 0, "state"),
          // {0, T + 1, T}: the bounds hold and the step down is refused (one
          // sequence cannot step down).
          TwoSequences("query_start_loc_decreasing_two_sequences", 1, "query_start_loc")};
}

}  // namespace
}  // namespace local_kda_chunk_prefill

OpSpec Spec_kda_chunk_prefill() {
  using namespace local_kda_chunk_prefill;
  OpSpec s = kda::KdaSpec({
      .name = "kda_chunk_prefill",
      .dtypes = "cpu: as kda_gated_delta_rule with one sequence (state [1,Hv,Dv,Dk], query_start_loc [2]); g_raw "
                "[T,Hv,Dk] f32, a_log [Hv] f32, dt_bias [Hv*Dk] f32 or [0]",
      .gate = "g_raw",
      .one_sequence = true,
      .hooks = {DrawBias, Build, Run, Eval<double>, Eval<float>},
      .operands = {entry::Operand("a_log", entry::kF32, entry::kContiguous, {1}),
                   entry::Operand("dt_bias", entry::kF32, entry::kContiguous, {1})},
      .errors = Errors(),
      .claims = {SameAs("gate_then_recurrence",
                        "kda_chunk_prefill == the gate alone (f32) then kda_gated_delta_rule on it", {},
                        "kda_gated_delta_rule", GateThenRecurrence, {{"out", "out"}, {"state", "state"}}),
                 kda::TwoCalls()},
  });
  s.values.edges = [](const Params&) { return std::vector<ValueBand>{{"g_raw", 17.0, 23.0}}; };
  return s;
}

namespace local_kda_chunk_prefill {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// The inverse of kda::Golden for this op (vt-fuzz --upstream): the case as the
// "kda_chunk_prefill" runner key's call - fla's fused_kda_gate (g = -exp(A_log)
// softplus(g_raw + dt_bias), threshold 20) then fused_recurrent_kda on its g,
// one sequence in a NULL-block cache (vt_regen/live_more.py; the regenerated
// goldens' gate_bias cases). vLLM's chunked (WY) prefill path, the key's other
// case kind, is not called: it equals the recurrence up to reduction order and
// costs tens of seconds per case in the Triton interpreter. As for
// kda_gated_delta_rule, fused_recurrent_kda allocates its output like k: only
// Hk == Hv and Dk == Dv go through it; the cost bound is gdn_prefill's.
UpstreamCall UpstreamChunkPrefill(const Case& c) {
  const TensorData& q = c.Get("q");
  const TensorData& v = c.Get("v");
  if (q.shape[1] != v.shape[1] || q.shape[2] != v.shape[2]) {
    throw GoldenUnsupported("Hk != Hv or Dk != Dv (fused_recurrent_kda allocates its output like k)");
  }
  UpstreamCall u = gdn_entry::UpstreamVarlenRecurrence(
      c, "kda_chunk_prefill",
      {{"softplus_beta", 1.0}, {"softplus_threshold", 20.0}, {"lower_bound", nullptr}}, "g_raw");
  u.inputs.push_back(UpstreamInput(c, "a_log", "A_log"));
  u.inputs.push_back(UpstreamInput(c, "dt_bias", "dt_bias"));  // [0]: no bias (g_bias=None upstream)
  return u;
}

}  // namespace
}  // namespace local_kda_chunk_prefill

UpstreamMap UpstreamMap_kda_chunk_prefill() {
  using namespace local_kda_chunk_prefill;
  return {"kda_chunk_prefill", "kda_chunk_prefill", UpstreamChunkPrefill};
}

}  // namespace vt::conform
