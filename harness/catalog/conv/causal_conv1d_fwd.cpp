// Catalog entry: causal_conv1d_fwd (vLLM causal_conv1d_fn: varlen prefill by
// query_start_loc, has_initial_state, conv_state written back in place).
#include <algorithm>

#include "harness/catalog/catalog.h"
#include "harness/catalog/conv/conv_entry.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "harness/core/rng.h"
#include "oracles/conv/causal_conv1d_fwd.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_causal_conv1d_fwd {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

using entry::Bounded;

// Sequence lengths: empty sequences, 1, K-1 and around it (the state
// left-padding branch), and longer ones; at least one token overall.
std::vector<int64_t> DrawLens(Tier tier, int64_t n) {
  const std::vector<int64_t> small = {0, 1, 2, 3, 4, 5};
  const std::vector<int64_t> ci = {0, 1, 2, 3, 4, 5, 7, 16, 17, 33, 64, 129};
  std::vector<int64_t> lens;
  for (int64_t s = 0; s < n; ++s) lens.push_back(*gen::Pick(tier == Tier::kSmoke ? small : ci));
  if (n > 0 && std::all_of(lens.begin(), lens.end(), [](int64_t l) { return l == 0; })) lens[0] = 3;
  return lens;
}

// After the common knobs (conv::DrawCommon).
void Draw(Params& p, Tier tier) {
  const int64_t n = *gen::Pick(std::vector<int64_t>{1, 2, 3, 5, 8});
  p.Set("N", n);
  p.Set("lens", DrawLens(tier, n));
  // has_initial_state: all, none, or a seed-chosen mix; i8 or i32.
  p.Set("init", *gen::Pick(std::vector<std::string>{"mixed", "all", "none"}));
  p.Set("init_dtype", *gen::Pick(std::vector<std::string>{"i32", "i8"}));
}

void Build(Case& c) {
  const Params& p = c.params;
  const auto lens = seq::IntList(p, "lens");
  const int64_t n = static_cast<int64_t>(lens.size()), ch = p.Int("C"), k = p.Int("K");
  const auto qsl = seq::Cumulative(lens);
  conv::BuildCommon(c, qsl.back());
  c.Add("conv_state", vt::DType::kF32, {n, ch, k - 1}, Role::kInPlace, entry::Values(p));
  seq::AddInts(c, "query_start_loc", vt::DType::kI32, qsl);
  std::vector<int64_t> init;
  for (int64_t s = 0; s < n; ++s) {
    const std::string how = p.Str("init");
    init.push_back(how == "all" ? 1 : how == "none" ? 0 : static_cast<int64_t>(SplitMix64(c.params.seed ^ static_cast<uint64_t>(s)) % 2));
  }
  seq::AddInts(c, "has_initial_state", p.DType("init_dtype"), init);
  c.Output("out", p.DType("out"), {qsl.back(), ch});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::CausalConv1dFwd(ctx, ws["out"], ws["x"], ws["weight"], ws.Find("bias"), ws["conv_state"], ws["query_start_loc"],
                      ws["has_initial_state"], conv::Args(ws.params()));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& w = c.Get("weight");
  auto r = oracle::CausalConv1dFwd<S>(w.shape[0], w.shape[1], c.Get("x").Values(), w.Values(), conv::BiasValues(c),
                                      c.Get("conv_state").Values(), seq::Ints(c.Get("query_start_loc")),
                                      seq::Ints(c.Get("has_initial_state")), c.params.Flag("silu"));
  return {{"out", std::move(r.out)}, {"conv_state", std::move(r.state)}};
}

// Rows [begin, end) of a [rows, C] tensor's values.
std::vector<double> RowsOf(const std::vector<double>& v, int64_t ch, int64_t begin, int64_t end) {
  return {v.begin() + begin * ch, v.begin() + end * ch};
}

// fwd over every sequence == causal_conv1d_update token by token: step t
// runs one update over the sequences longer than t (their state rows named
// by conv_state_indices), starting from the old state (zeros where
// has_initial_state is 0). Outputs and the final state bit for bit.
ClaimOutcome UpdateSteps(const OpSpec&, const Case& c, const vt::ExecContext& ctx, const Execution& a) {
  const auto qsl = seq::Ints(c.Get("query_start_loc")), init = seq::Ints(c.Get("has_initial_state"));
  const TensorData& x = c.Get("x");
  const int64_t n = static_cast<int64_t>(init.size()), ch = x.shape[1], k = c.Get("weight").shape[1];
  auto sv = c.Get("conv_state").Values();
  for (int64_t s = 0; s < n; ++s) {
    if (init[static_cast<std::size_t>(s)] == 0) {
      std::fill(sv.begin() + s * ch * (k - 1), sv.begin() + (s + 1) * ch * (k - 1), 0.0);
    }
  }
  TensorData state = TensorFromValues("conv_state", vt::DType::kF32, {n, ch, k - 1}, Role::kInPlace, sv);
  const TensorData& out = c.Get("out");
  std::vector<double> got(static_cast<std::size_t>(out.Numel()), 0.0);
  const std::string step = conv::UpdateTokenByToken(c, ctx, qsl, std::vector<bool>(static_cast<std::size_t>(n), true), state, got);
  if (!step.empty()) return ClaimOutcome::Violated(step);
  std::string d = DiffBytes(a.after.Get("out"), TensorFromValues("out", out.dtype, out.shape, Role::kOutput, got), true);
  if (!d.empty()) return ClaimOutcome::Violated("out vs the update steps: " + d);
  d = DiffBytes(a.after.Get("conv_state"), state, true);
  if (!d.empty()) return ClaimOutcome::Violated("conv_state vs the update steps: " + d);
  return ClaimOutcome::Holds();
}

// Batch invariance: every sequence run alone (its x rows, its state row, its
// has_initial_state) gives the bytes the batched call gave it.
ClaimOutcome SplitBatch(const OpSpec& op, const Case& c, const vt::ExecContext& ctx, const Execution& a) {
  const auto qsl = seq::Ints(c.Get("query_start_loc")), init = seq::Ints(c.Get("has_initial_state"));
  const TensorData& x = c.Get("x");
  const TensorData& st = c.Get("conv_state");
  const int64_t n = static_cast<int64_t>(init.size()), ch = x.shape[1], row = st.shape[1] * st.shape[2];
  const auto xv = x.Values(), sv = st.Values();
  const TensorData& out = c.Get("out");
  std::vector<double> got_out(static_cast<std::size_t>(out.Numel()), 0.0), got_state(sv.size(), 0.0);
  for (int64_t s = 0; s < n; ++s) {
    const int64_t lo = qsl[static_cast<std::size_t>(s)], hi = qsl[static_cast<std::size_t>(s) + 1];
    Case one;
    one.params = c.params;
    one.tensors = {TensorFromValues("x", x.dtype, {hi - lo, ch}, Role::kInput, RowsOf(xv, ch, lo, hi)),
                   CopyTensor(c.Get("weight"), "weight", Role::kInput),
                   TensorFromValues("conv_state", vt::DType::kF32, {1, st.shape[1], st.shape[2]}, Role::kInPlace,
                                    RowsOf(sv, row, s, s + 1)),
                   TensorFromValues("query_start_loc", vt::DType::kI32, {2}, Role::kInput, {0.0, static_cast<double>(hi - lo)}),
                   TensorFromValues("has_initial_state", c.Get("has_initial_state").dtype, {1}, Role::kInput,
                                    {static_cast<double>(init[static_cast<std::size_t>(s)])}),
                   seq::Poisoned("out", out.dtype, {hi - lo, ch})};
    if (c.Find("bias") != nullptr) one.tensors.push_back(CopyTensor(c.Get("bias"), "bias", Role::kInput));
    const Execution e = Execute(op, one, ctx);
    if (!e.guard_error.empty()) return ClaimOutcome::Violated("sequence " + std::to_string(s) + ": " + e.guard_error);
    const auto ov = e.after.Get("out").Values(), nv = e.after.Get("conv_state").Values();
    std::copy(ov.begin(), ov.end(), got_out.begin() + lo * ch);
    std::copy(nv.begin(), nv.end(), got_state.begin() + s * row);
  }
  std::string d = DiffBytes(a.after.Get("out"), TensorFromValues("out", out.dtype, out.shape, Role::kOutput, got_out), true);
  if (!d.empty()) return ClaimOutcome::Violated("out vs single-sequence calls: " + d);
  d = DiffBytes(a.after.Get("conv_state"), TensorFromValues("conv_state", vt::DType::kF32, st.shape, Role::kInPlace, got_state), true);
  if (!d.empty()) return ClaimOutcome::Violated("conv_state vs single-sequence calls: " + d);
  return ClaimOutcome::Holds();
}

// query_start_loc[i] (0 < i < N) beyond T: the offsets decrease after it.
bool Decreasing(std::vector<int64_t>& v, const Case& c) {
  if (v.size() < 3) return false;
  v[1] = c.Get("x").shape[0] + 1;
  return true;
}

// vLLM causal_conv1d_fn goldens (token-major x [T,dim], weight [dim,width],
// conv_state_in/out [N,dim,width-1] = the sequences' cache lines, qsl,
// has_initial_state; activation "silu"/"swish" or none; optional bias).
GoldenMapping GoldenFwd(const GoldenCase& g) {
  if (g.Has("cache_indices") || g.Has("conv_state_indices")) {
    throw GoldenUnsupported("a conv_state cache addressed by cache_indices: causal_conv1d_fwd takes one state row per "
                            "sequence (the recorded format dumps those rows)");
  }
  const bool silu = conv::GoldenSilu(g);
  TensorData x = GoldenTensor(g, "x", "x", Role::kInput);
  TensorData w = conv::GoldenWeight(g);
  conv::RequireF32State(g);
  if (x.shape.size() != 2 || w.shape.size() != 2 || x.shape[1] != w.shape[0]) {
    throw GoldenUnsupported("x must be token-major [T,dim] with weight [dim,width]");
  }
  Params p("causal_conv1d_fwd");
  conv::SetGoldenDtypes(p, g, x, w, GoldenOutputLike(g, "out", "out"));
  p.Set("C", x.shape[1]);
  p.Set("K", w.shape[1]);
  p.Set("silu", silu ? 1 : 0);
  p.Set("pad", 0);
  const auto qsl = seq::Ints(g.Get("query_start_loc"));
  std::vector<int64_t> lens;
  for (std::size_t i = 1; i < qsl.size(); ++i) lens.push_back(qsl[i] - qsl[i - 1]);
  p.Set("N", static_cast<int64_t>(lens.size()));
  p.Set("lens", lens);
  GoldenMapping m;
  m.c.params = p;
  m.c.tensors = {x, w, GoldenTensor(g, "conv_state_in", "conv_state", Role::kInPlace),
                 GoldenTensor(g, "query_start_loc", "query_start_loc", Role::kInput),
                 GoldenTensor(g, "has_initial_state", "has_initial_state", Role::kInput),
                 GoldenOutputLike(g, "out", "out")};
  if (g.Has("bias")) m.c.tensors.push_back(GoldenTensor(g, "bias", "bias", Role::kInput));
  m.compare = {{"out", "out"}, {"conv_state", "conv_state_out"}};
  // A manifest may hold conv_state_out to its own (tighter) tolerance
  // (vt-fuzz --upstream: 0, the state being copied inputs).
  PerOutputTol(g, m);
  return m;
}

// The inverse of GoldenFwd (vt-fuzz --upstream): vLLM's CPU causal_conv1d_fn
// (F.conv1d per sequence in the weight's dtype). A 16-bit weight would round
// the f32 state and x to it there (another definition than the kernel's f32
// one), and F.conv1d takes a bias of the weight's dtype only.
UpstreamCall UpstreamFwd(const Case& c) {
  const Params& p = c.params;
  RequireElements(c, "out");
  if (p.Int("pad") > 0) throw GoldenUnsupported("padded x rows (upstream takes x contiguous)");
  if (p.Str("w") != "f32") {
    throw GoldenUnsupported("a 16-bit weight (upstream convolves in the weight's dtype, rounding the f32 state and x "
                            "to it)");
  }
  if (p.Str("bias") != "none" && p.Str("bias") != "f32") {
    throw GoldenUnsupported("a bias of another dtype than the f32 weight (F.conv1d refuses it)");
  }
  if (p.Int("K") < 2) throw GoldenUnsupported("K = 1: no state taps (an empty conv_state_out cannot be judged)");
  // Upstream skips an empty sequence (its state row untouched); the kernel's
  // definition (docs/ops/conv.md) zeroes the row of one without an initial
  // state - a known difference (docs/fuzzing.md, Findings), left out here.
  const auto lens = seq::IntList(p, "lens");
  const auto init = c.Get("has_initial_state").Values();
  for (std::size_t s = 0; s < lens.size() && s < init.size(); ++s) {
    if (lens[s] == 0 && init[s] == 0) {
      throw GoldenUnsupported("an empty sequence without an initial state (upstream leaves its state row untouched, "
                              "the kernel zeroes it: docs/fuzzing.md, Findings)");
    }
  }
  UpstreamCall u;
  u.op = "causal_conv1d_fwd";
  u.args = {{"activation", p.Flag("silu") ? "silu" : "none"}};
  u.inputs = {UpstreamInput(c, "x", "x"), UpstreamInput(c, "weight", "weight"),
              UpstreamInput(c, "conv_state", "conv_state_in"), UpstreamInput(c, "query_start_loc", "query_start_loc"),
              UpstreamInput(c, "has_initial_state", "has_initial_state")};
  if (p.Str("bias") != "none") u.inputs.push_back(UpstreamInput(c, "bias", "bias"));
  u.outputs = {UpstreamOutput(c, "out", "out"), UpstreamOutput(c, "conv_state", "conv_state_out")};
  return u;
}

std::vector<ErrorCase> Errors() {
  return {mut::Dim("conv_state", 2, 1), mut::Dim("query_start_loc", 0, 1), mut::Dim("has_initial_state", 0, 1),
          seq::EditInts("qsl_last_past_T", "query_start_loc", "query_start_loc", seq::EndPastTotal),
          seq::EditInts("qsl_first_not_0", "query_start_loc", "query_start_loc",
                        [](std::vector<int64_t>& v, const Case&) {
                          if (v.size() < 2 || v[1] < 1) return false;
                          v[0] = 1;
                          return true;
                        }),
          seq::EditInts("qsl_decreasing", "query_start_loc", "non-decreasing", Decreasing),
          seq::EditInts("qsl_negative", "query_start_loc", "non-decreasing", seq::FirstStepNegative)};
}

}  // namespace
}  // namespace local_causal_conv1d_fwd

OpSpec Spec_causal_conv1d_fwd() {
  using namespace local_causal_conv1d_fwd;
  return conv::ConvSpec({
      .name = "causal_conv1d_fwd",
      .dtypes = "cpu: x [T,C] f32/f16/bf16 (rows may be padded), weight [C,K], bias [C] f32/f16/bf16; out f32/bf16; "
                "conv_state [N,C,K-1] f32 in place; query_start_loc i32 [N+1]; has_initial_state i8/i32 [N]",
      .min_k = 1,
      .hooks = {Draw, Build, Run, Eval<Bounded>, Eval<float>},
      .operands = {entry::Operand("query_start_loc", {vt::DType::kI32}, entry::kContiguous, {1}),
                   entry::Operand("has_initial_state", {vt::DType::kI8, vt::DType::kI32}, entry::kContiguous, {1})},
      .errors = Errors(),
      .claims = {seq::AfterRun("update_steps",
                               "fwd over each sequence == causal_conv1d_update token by token (outputs and state, "
                               "bit for bit)",
                               nullptr, UpdateSteps),
                 seq::AfterRun("split_batch",
                               "each sequence run alone gives the bytes of the batched call (batch invariance)",
                               [](const Params& p) { return p.Int("N") >= 2; }, SplitBatch)},
      .goldens = {{"causal_conv1d_fwd", GoldenFwd}, {"causal_conv1d", GoldenFwd}},
  });
}

UpstreamMap UpstreamMap_causal_conv1d_fwd() {
  using namespace local_causal_conv1d_fwd;
  return {"causal_conv1d_fwd", "causal_conv1d_fwd", UpstreamFwd};
}

}  // namespace vt::conform
