// Catalog entry: gdn_prefill (fla fused_recurrent_gated_delta_rule over a
// varlen batch; vLLM's GDN prefill with initial states).
#include <numeric>

#include "harness/catalog/catalog.h"
#include "harness/catalog/gdn/gdn_recurrence_entry.h"
#include "harness/catalog/gdn/varlen_upstream.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "oracles/gdn/gdn_prefill.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_gdn_prefill {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

using namespace gdn_entry;

void Draw(Params& p, Tier tier) {
  DrawHeads(p, tier);
  const int64_t n = *gen::Pick(std::vector<int64_t>{1, 2, 3, 0, 5});
  // "long": one deep sequence, where the recurrence's error compounds.
  const bool deep = *gen::Pick(std::vector<int64_t>{0, 0, 1}) == 1 && n > 0;
  const int64_t budget = TokenBudget(p, tier == Tier::kSmoke ? 20000 : 60000);
  std::vector<int64_t> lens;
  int64_t total = 0;
  for (int64_t s = 0; s < n; ++s) {
    int64_t len = *gen::Pick(std::vector<int64_t>{3, 1, 0, 2, 7, 17, 40});
    if (deep && s == 0) len = std::max<int64_t>(budget / 2, 1);
    len = std::max<int64_t>(0, std::min(len, budget - total));
    lens.push_back(len);
    total += len;
  }
  p.Set("lens", lens);
}

void Build(Case& c) {
  const std::vector<int64_t> qsl = seq::Cumulative(seq::IntList(c.params, "lens"));
  const int64_t seqs = static_cast<int64_t>(qsl.size()) - 1;
  AddTokenInputs(c, qsl.back());
  AddState(c, seqs);
  seq::AddInts(c, "query_start_loc", vt::DType::kI32, {seqs + 1}, qsl);
  AddOut(c, qsl.back());
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::GdnPrefill(ctx, ws["out"], ws["q"], ws["k"], ws["v"], ws["g"], ws["beta"], ws["state"],
                 ws["query_start_loc"], {ws.params().F32("scale")});
}

template <class S>
oracle::GdnResult<S> Eval(const Case& c) {
  const TensorData& q = c.Get("q");
  return oracle::GdnPrefill<S>(Dims(c.params), q.shape[0], seq::Ints(c.Get("query_start_loc")), q.Values(),
                               entry::Vals(c, "k"), entry::Vals(c, "v"), entry::Vals(c, "g"),
                               entry::Vals(c, "beta"), entry::Vals(c, "state"), c.params.F32("scale"));
}

// An empty sequence leaves its state slot untouched: held byte-exact.
ExactRows Exact(const Case& c) {
  const std::vector<int64_t> qsl = seq::Ints(c.Get("query_start_loc"));
  ExactRows r;
  for (std::size_t s = 0; s + 1 < qsl.size(); ++s) r.state.push_back(qsl[s + 1] == qsl[s]);
  return r;
}

// gdn_decode steps: step j runs token qsl[s] + j of every sequence s longer
// than j as one decode batch, state_idx naming the sequences' slots of the
// running state. The outputs and the final state must be prefill's bytes.
ClaimOutcome DecodeSteps(const OpSpec&, const Case& c, const vt::ExecContext& ctx, const Execution& full) {
  const OpSpec* dec = FindOp("gdn_decode");
  const std::vector<int64_t> qsl = seq::Ints(c.Get("query_start_loc"));
  const oracle::GdnDims d = Dims(c.params);
  TensorData state = CopyTensor(c.Get("state"), "state", Role::kInPlace);
  std::vector<double> out(static_cast<size_t>(qsl.back() * d.hv * d.dv), 0.0);
  for (int64_t j = 0;; ++j) {
    std::vector<int64_t> seqs;
    for (std::size_t s = 0; s + 1 < qsl.size(); ++s) {
      if (qsl[s + 1] - qsl[s] > j) seqs.push_back(static_cast<int64_t>(s));
    }
    if (seqs.empty()) break;
    const auto batch = static_cast<int64_t>(seqs.size());
    Case step;
    step.params = c.params;
    step.params.op = "gdn_decode";
    step.params.Set("T", batch);
    step.params.Set("indexed", 1);
    for (const char* name : kTokenInputs) {
      const TensorData& src = c.Get(name);
      int64_t row = src.Numel() / std::max<int64_t>(src.shape[0], 1);
      const std::vector<double> all = src.Values();
      std::vector<double> rows;
      for (int64_t s : seqs) {
        const int64_t t = qsl[static_cast<size_t>(s)] + j;
        rows.insert(rows.end(), all.begin() + t * row, all.begin() + (t + 1) * row);
      }
      std::vector<int64_t> shape = src.shape;
      shape[0] = batch;
      step.tensors.push_back(TensorFromValues(name, src.dtype, shape, Role::kInput, rows));
    }
    step.tensors.push_back(state);
    step.tensors.push_back(TensorFromValues("state_idx", vt::DType::kI32, {batch}, Role::kInput,
                                            std::vector<double>(seqs.begin(), seqs.end())));
    step.tensors.push_back(seq::Poisoned("out", c.Get("out").dtype, {batch, d.hv, d.dv}));
    const Execution e = Execute(*dec, step, ctx);
    if (!e.guard_error.empty()) return ClaimOutcome::Violated("gdn_decode: " + e.guard_error);
    state = CopyTensor(e.after.Get("state"), "state", Role::kInPlace);
    const std::vector<double> got = e.after.Get("out").Values();
    const int64_t row = d.hv * d.dv;
    for (std::size_t i = 0; i < seqs.size(); ++i) {
      const int64_t t = qsl[static_cast<size_t>(seqs[i])] + j;
      std::copy(got.begin() + static_cast<int64_t>(i) * row, got.begin() + static_cast<int64_t>(i + 1) * row,
                out.begin() + t * row);
    }
  }
  const TensorData& want_out = full.after.Get("out");
  const std::string dout =
      DiffBytes(want_out, TensorFromValues("out", want_out.dtype, want_out.shape, Role::kOutput, out));
  if (!dout.empty()) return ClaimOutcome::Violated("out: " + dout);
  const std::string dst = DiffBytes(full.after.Get("state"), state);
  return dst.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated("state: " + dst);
}

// Batch invariance: each sequence run alone (its tokens, its state row) gives
// the bytes of the batched run.
ClaimOutcome SequencesAlone(const OpSpec& op, const Case& c, const vt::ExecContext& ctx, const Execution& full) {
  const std::vector<int64_t> qsl = seq::Ints(c.Get("query_start_loc"));
  for (std::size_t s = 0; s + 1 < qsl.size(); ++s) {
    const int64_t lo = qsl[s], hi = qsl[s + 1], row = static_cast<int64_t>(s);
    Case one;
    one.params = c.params;
    one.params.Set("lens", std::vector<int64_t>{hi - lo});
    one.tensors = TokenRows(c, lo, hi);
    one.tensors.push_back(LeadingRows(c.Get("state"), row, row + 1, "state", Role::kInPlace));
    one.tensors.push_back(OneSequence("query_start_loc", hi - lo));
    one.tensors.push_back(seq::Poisoned("out", c.Get("out").dtype, LeadingRows(c.Get("out"), lo, hi, "out", Role::kOutput).shape));
    const Execution e = Execute(op, one, ctx);
    if (!e.guard_error.empty()) return ClaimOutcome::Violated(e.guard_error);
    const std::string dout = DiffBytes(e.after.Get("out"), LeadingRows(full.after.Get("out"), lo, hi, "out", Role::kOutput));
    if (!dout.empty()) return ClaimOutcome::Violated("sequence " + std::to_string(s) + " out: " + dout);
    const std::string dst =
        DiffBytes(e.after.Get("state"), LeadingRows(full.after.Get("state"), row, row + 1, "state", Role::kInPlace));
    if (!dst.empty()) return ClaimOutcome::Violated("sequence " + std::to_string(s) + " state: " + dst);
  }
  return ClaimOutcome::Holds();
}

// fla fused_recurrent / chunk goldens: q, k (pre-normalised), v, g, beta,
// state_in [N,Hv,Dv,Dk] (absent or zeros without an initial state),
// query_start_loc; out, state_out.
GoldenMapping GoldenPrefill(const GoldenCase& g) {
  if (g.ArgBool("use_qk_l2norm_in_kernel", false)) {
    throw GoldenUnsupported("q/k normalised inside the kernel (gdn_prefill takes pre-normalised q/k)");
  }
  GoldenMapping m;
  const TensorData& q = g.Get("q");
  const TensorData& v = g.Get("v");
  const std::string out = GoldenPick(g, {"out", "o"});
  const std::string state_out = GoldenPick(g, {"state_out", "final_state", "ht"});
  const TensorData& sout = g.Get(state_out);
  if (sout.dtype != vt::DType::kF32) throw GoldenUnsupported("a non-f32 state (the CPU prefill state is f32)");
  Params p("gdn_prefill");
  p.Set("qk", DTypeKey(q));
  p.Set("v", DTypeKey(v));
  p.Set("out", DTypeKey(GoldenOutputLike(g, out, "out")));
  SetHeads(p, q.shape[1], v.shape[1], q.shape[2], v.shape[2]);
  p.Set("scale", g.ArgNum("scale", 1.0 / std::sqrt(static_cast<double>(q.shape[2]))));
  TensorData qsl = GoldenTensor(g, GoldenPick(g, {"query_start_loc", "cu_seqlens"}), "query_start_loc", Role::kInput);
  std::vector<int64_t> lens;
  const std::vector<int64_t> off = seq::Ints(qsl);
  for (std::size_t s = 0; s + 1 < off.size(); ++s) lens.push_back(off[s + 1] - off[s]);
  p.Set("lens", lens);
  m.c.params = p;
  m.c.tensors = {GoldenTensor(g, "q", "q", Role::kInput), GoldenTensor(g, "k", "k", Role::kInput),
                 GoldenTensor(g, "v", "v", Role::kInput), GoldenTensor(g, "g", "g", Role::kInput),
                 GoldenTensor(g, "beta", "beta", Role::kInput), qsl};
  if (g.Has("state_in")) {
    m.c.tensors.push_back(GoldenTensor(g, "state_in", "state", Role::kInPlace));
  } else {
    m.c.tensors.push_back(TensorFromValues("state", vt::DType::kF32, sout.shape, Role::kInPlace,
                                           std::vector<double>(static_cast<size_t>(sout.Numel()), 0.0)));
  }
  m.c.tensors.push_back(GoldenOutputLike(g, out, "out"));
  m.compare = {{"out", out}, {"state", state_out}};
  PerOutputTol(g, m);  // vt-fuzz --upstream's per-output bounds (none in the recorded goldens)
  return m;
}

int64_t TotalTokens(const Params& p) {
  const std::vector<int64_t> lens = seq::IntList(p, "lens");
  return std::accumulate(lens.begin(), lens.end(), int64_t{0});
}

// The inverse of the gdn_prefill adapter (vt-fuzz --upstream): fla's fused
// recurrent kernel over the varlen batch (vt_regen/live.py gdn_prefill,
// ops_gdn.prefill_run). Every case has an upstream form up to the
// interpreter's cost bound (varlen_upstream.h).
UpstreamCall UpstreamPrefill(const Case& c) {
  return UpstreamVarlenRecurrence(c, "gdn_prefill", {{"with_initial_state", true}});
}

}  // namespace
}  // namespace local_gdn_prefill

OpSpec Spec_gdn_prefill() {
  using namespace local_gdn_prefill;
  std::vector<ErrorCase> errors = TokenDimErrors();
  errors.push_back(mut::Dim("query_start_loc", 0, 1));
  seq::Append(errors, CumulativeErrors("qsl", "query_start_loc"));
  return RecurrenceSpec({
      .name = "gdn_prefill",
      .dtypes = "cpu: q,k,v f32/f16/bf16; g,beta f32; out f32/bf16; state f32 (in place); query_start_loc i32",
      .hooks = {Draw, Build, Run, Eval<double>, Eval<float>},
      .exact = Exact,
      .operands = TokenOperands({entry::Operand("query_start_loc", {vt::DType::kI32}, entry::kContiguous, {1})}),
      .errors = errors,
      .claims = {seq::AfterRun("decode_token_by_token",
                               "gdn_prefill over each sequence == gdn_decode token by token (out and state, bit for "
                               "bit)",
                               // One decode call per step: cases up to 48 tokens keep the mode fast.
                               [](const Params& p) { return TotalTokens(p) <= 48; }, DecodeSteps),
                 seq::AfterRun("split_sequences",
                               "a varlen batch == each sequence in its own call (out rows and state row, bit for bit)",
                               [](const Params& p) { return p.args.at("lens").size() >= 2; }, SequencesAlone)},
      .goldens = {{"gdn_prefill", GoldenPrefill}},
  });
}

// sk, decay, init only choose the drawn scale and values (the golden holds
// both; SetHeads names any golden rsqrt/mild/unit).
UpstreamMap UpstreamMap_gdn_prefill() {
  using namespace local_gdn_prefill;
  return {"gdn_prefill", "gdn_prefill", UpstreamPrefill, {"sk", "decay", "init"}};
}

}  // namespace vt::conform
