// Catalog entry: causal_conv1d_spec_update (vLLM causal_conv1d_update with
// num_accepted_tokens / query_start_loc: the speculative-decoding branch; the
// state row is the widened window of (K-1) + (max_query_len-1) taps).
#include <algorithm>

#include "harness/catalog/catalog.h"
#include "harness/catalog/conv/conv_entry.h"
#include "harness/core/rng.h"
#include "oracles/conv/causal_conv1d_spec_update.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_causal_conv1d_spec_update {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

using entry::Bounded;

// After the common knobs (conv::DrawCommon, K >= 2).
void Draw(Params& p, Tier tier) {
  // max_query_len 1 is the non-speculative layout (L = K-1): the claim
  // against causal_conv1d_update applies there.
  p.Set("mql", *gen::Pick(std::vector<int64_t>{1, 2, 3, 4}));
  p.Set("R", *gen::Pick(tier == Tier::kSmoke ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{1, 2, 3, 5, 8, 17, 64}));
  p.Set("extra", *gen::Pick(std::vector<int64_t>{0, 1, 5}));
}

// Per request: length in [0, mql] (mql itself most often: a full draft) and
// accepted in [1, mql], both seed-derived.
std::vector<int64_t> Lengths(const Params& p) {
  const int64_t r = p.Int("R"), mql = p.Int("mql");
  std::vector<int64_t> v;
  for (int64_t i = 0; i < r; ++i) {
    const uint64_t h = SplitMix64(p.seed ^ HashName("len") ^ static_cast<uint64_t>(i));
    v.push_back(h % 3 == 0 ? static_cast<int64_t>(h / 3 % static_cast<uint64_t>(mql + 1)) : mql);
  }
  return v;
}

std::vector<int64_t> Accepted(const Params& p) {
  const int64_t r = p.Int("R"), mql = p.Int("mql");
  std::vector<int64_t> v;
  for (int64_t i = 0; i < r; ++i) {
    v.push_back(1 + static_cast<int64_t>(SplitMix64(p.seed ^ HashName("acc") ^ static_cast<uint64_t>(i)) %
                                         static_cast<uint64_t>(mql)));
  }
  return v;
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t r = p.Int("R"), ch = p.Int("C"), k = p.Int("K"), mql = p.Int("mql");
  const auto cu = seq::Cumulative(Lengths(p));
  const int64_t slots = r + p.Int("extra");
  conv::BuildCommon(c, cu.back());
  c.Add("conv_state", vt::DType::kF32, {slots, ch, k - 1 + mql - 1}, Role::kInPlace, entry::Values(p));
  seq::AddInts(c, "conv_state_indices", vt::DType::kI32, conv::DrawSlots(p.seed, r, slots, true));
  seq::AddInts(c, "num_accepted_tokens", vt::DType::kI32, Accepted(p));
  seq::AddInts(c, "cu_seqlens", vt::DType::kI32, cu);
  c.Output("out", p.DType("out"), {cu.back(), ch});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::CausalConv1dSpecUpdate(ctx, ws["out"], ws["x"], ws["weight"], ws.Find("bias"), ws["conv_state"],
                             ws["conv_state_indices"], ws["num_accepted_tokens"], ws["cu_seqlens"],
                             conv::Args(ws.params()));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& w = c.Get("weight");
  const TensorData& st = c.Get("conv_state");
  auto r = oracle::CausalConv1dSpecUpdate<S>(w.shape[0], w.shape[1], st.shape[2], c.Get("x").Values(), w.Values(),
                                             conv::BiasValues(c), st.Values(), seq::Ints(c.Get("cu_seqlens")),
                                             seq::Ints(c.Get("conv_state_indices")),
                                             seq::Ints(c.Get("num_accepted_tokens")), c.params.Flag("silu"));
  return {{"out", std::move(r.out)}, {"conv_state", std::move(r.state)}};
}

// At max_query_len 1 (L = K-1, every request 0 or 1 token, accepted 1) the
// speculative update is the plain one: causal_conv1d_update over the
// requests that have a token, with their slots. Out and state bit for bit.
Case AsUpdate(const Case& c) {
  Case u;
  u.params = Params("causal_conv1d_update");
  u.params.Set("silu", c.params.Int("silu"));
  u.params.seed = c.params.seed;
  const auto cu = seq::Ints(c.Get("cu_seqlens")), slot = seq::Ints(c.Get("conv_state_indices"));
  std::vector<double> idx;
  for (std::size_t i = 0; i + 1 < cu.size(); ++i) {
    if (cu[i + 1] > cu[i]) idx.push_back(static_cast<double>(slot[i]));
  }
  const TensorData& x = c.Get("x");
  u.tensors = {TensorFromValues("x", x.dtype, x.shape, Role::kInput, x.Values()),
               CopyTensor(c.Get("weight"), "weight", Role::kInput),
               CopyTensor(c.Get("conv_state"), "conv_state", Role::kInPlace),
               TensorFromValues("conv_state_indices", vt::DType::kI32, {static_cast<int64_t>(idx.size())},
                                Role::kInput, idx),
               CopyTensor(c.Get("out"), "out", Role::kOutput)};
  if (c.Find("bias") != nullptr) u.tensors.push_back(CopyTensor(c.Get("bias"), "bias", Role::kInput));
  return u;
}

// The speculative window read at accepted-1 is an ordinary K-1 tap state:
// running causal_conv1d_update token by token from row[off .. off+K-2] gives
// every live request's outputs bit for bit (step t updates the requests
// longer than t; their windows are rows of a compact [R,C,K-1] state named
// by conv_state_indices). NULL requests are the oracle's to check.
ClaimOutcome WindowSteps(const OpSpec&, const Case& c, const vt::ExecContext& ctx, const Execution& a) {
  const auto cu = seq::Ints(c.Get("cu_seqlens")), slot = seq::Ints(c.Get("conv_state_indices"));
  const auto acc = seq::Ints(c.Get("num_accepted_tokens"));
  const TensorData& x = c.Get("x");
  const TensorData& st = c.Get("conv_state");
  const int64_t r = static_cast<int64_t>(slot.size()), ch = x.shape[1], k = c.Get("weight").shape[1], len = st.shape[2];
  const auto sv = st.Values(), xv = x.Values();
  std::vector<double> win(static_cast<std::size_t>(r * ch * (k - 1)), 0.0);
  for (int64_t i = 0; i < r; ++i) {
    if (slot[static_cast<std::size_t>(i)] < 0) continue;
    for (int64_t cc = 0; cc < ch; ++cc) {
      for (int64_t j = 0; j + 1 < k; ++j) {
        win[static_cast<std::size_t>((i * ch + cc) * (k - 1) + j)] =
            sv[static_cast<std::size_t>((slot[static_cast<std::size_t>(i)] * ch + cc) * len + acc[static_cast<std::size_t>(i)] - 1 + j)];
      }
    }
  }
  TensorData state = TensorFromValues("conv_state", vt::DType::kF32, {r, ch, k - 1}, Role::kInPlace, win);
  const TensorData& out = a.after.Get("out");
  auto got = out.Values();
  std::vector<bool> live;
  for (int64_t i = 0; i < r; ++i) live.push_back(slot[static_cast<std::size_t>(i)] >= 0);
  const std::string step = conv::UpdateTokenByToken(c, ctx, cu, live, state, got);
  if (!step.empty()) return ClaimOutcome::Violated(step);
  const std::string d = DiffBytes(out, TensorFromValues("out", out.dtype, out.shape, Role::kOutput, got), true);
  return d.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated("out vs update steps from the window: " + d);
}

// cu_seqlens ending past T, with x and out grown to match: only the length
// rule (a request longer than max_query_len) is broken.
bool TooLong(Case& c) {
  TensorData& cu = c.Get("cu_seqlens");
  auto v = seq::Declared(cu);
  const int64_t grow = c.params.Int("mql") + 1 - (v.back() - v[v.size() - 2]);
  v.back() += grow;
  seq::SetInts(cu, v);
  for (const char* name : {"x", "out"}) {
    TensorData& t = c.Get(name);
    t.shape[0] += grow;
    if (std::string(name) == "x") {
      t.SetRowPadding(c.params.Int("pad"));
    } else {
      t.SetContiguous();
    }
  }
  return true;
}

std::vector<ErrorCase> Errors() {
  return {mut::Dim("conv_state_indices", 0, 1),
          mut::Dim("num_accepted_tokens", 0, 1),
          {"weight_width_1",
           [](Case& c) {
             TensorData& w = c.Get("weight");
             w.shape[1] = 1;
             w.SetContiguous();
             return true;
           },
           "kernel width"},
          {"no_requests",
           [](Case& c) {
             TensorData& cu = c.Get("cu_seqlens");
             cu.shape = {1};
             cu.SetContiguous();
             seq::SetInts(cu, {0});
             return true;
           },
           "cu_seqlens"},
          seq::EditInts("cu_last_past_T", "cu_seqlens", "cu_seqlens", seq::EndPastTotal),
          seq::EditInts("cu_decreasing", "cu_seqlens", "non-decreasing",
                        [](std::vector<int64_t>& v, const Case& c) {
                          if (v.size() < 3) return false;
                          v[1] = c.Get("x").shape[0] + 1;
                          return true;
                        }),
          {"request_longer_than_max_query_len", TooLong, "max_query_len"},
          seq::EditInts("accepted_0", "num_accepted_tokens", "num_accepted_tokens",
                        [](std::vector<int64_t>& v, const Case&) { v.front() = 0; return true; }),
          seq::EditInts("accepted_past_max", "num_accepted_tokens", "num_accepted_tokens",
                        [](std::vector<int64_t>& v, const Case& c) {
                          v.back() = c.params.Int("mql") + 1;
                          return true;
                        }),
          seq::EditInts("indices_out_of_range_N", "conv_state_indices", "conv_state_indices",
                        [](std::vector<int64_t>& v, const Case& c) {
                          v.back() = c.Get("conv_state").shape[0];
                          return true;
                        }),
          conv::DuplicateSlot("conv_state_indices")};
}

}  // namespace
}  // namespace local_causal_conv1d_spec_update

OpSpec Spec_causal_conv1d_spec_update() {
  using namespace local_causal_conv1d_spec_update;
  return conv::ConvSpec({
      .name = "causal_conv1d_spec_update",
      .dtypes = "cpu: x [T,C] f32/f16/bf16 (rows may be padded), weight [C,K>=2], bias [C]; out f32/bf16; conv_state "
                "[N,C,L] f32 in place, L = K-1 + max_query_len-1; conv_state_indices, num_accepted_tokens i32 [R]; "
                "cu_seqlens i32 [R+1]",
      .min_k = 2,
      .hooks = {Draw, Build, Run, Eval<Bounded>, Eval<float>},
      .operands = {entry::Operand("conv_state_indices", {vt::DType::kI32}, entry::kContiguous, {1}),
                   entry::Operand("num_accepted_tokens", {vt::DType::kI32}, entry::kContiguous, {1}),
                   entry::Operand("cu_seqlens", {vt::DType::kI32}, entry::kContiguous, {1})},
      .errors = Errors(),
      .claims = {SameAs("mql1_eq_update",
                        "at max_query_len 1 (L = K-1, accepted 1) == causal_conv1d_update over the requests with a "
                        "token (out and state)",
                        [](const Params& p) { return p.Int("mql") == 1; }, "causal_conv1d_update", AsUpdate,
                        {{"out", "out"}, {"conv_state", "conv_state"}}),
                 seq::AfterRun("window_steps",
                               "out == causal_conv1d_update token by token from the window at num_accepted_tokens - 1 "
                               "(live requests)",
                               nullptr, WindowSteps)},
  });
}

}  // namespace vt::conform
