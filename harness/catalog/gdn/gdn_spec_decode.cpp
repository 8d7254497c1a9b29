// Catalog entry: gdn_spec_decode (fla fused_recurrent with 2-D
// ssm_state_indices, num_accepted_tokens and in-place per-token states: vLLM's
// GDN speculative decoding).
#include "harness/catalog/catalog.h"
#include "harness/catalog/gdn/gdn_recurrence_entry.h"
#include "oracles/gdn/gdn_spec_decode.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_gdn_spec_decode {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

using namespace gdn_entry;

void Draw(Params& p, Tier tier) {
  DrawHeads(p, tier);
  const int64_t cols = *gen::Pick(std::vector<int64_t>{3, 1, 2, 4});
  int64_t reqs = *gen::Pick(std::vector<int64_t>{2, 1, 3, 4, 0});
  reqs = std::min(reqs, std::max<int64_t>(1, TokenBudget(p, tier == Tier::kSmoke ? 20000 : 60000) / cols));
  std::vector<int64_t> upto(static_cast<size_t>(cols + 1)), from1(static_cast<size_t>(cols));
  for (int64_t i = 0; i <= cols; ++i) upto[static_cast<size_t>(i)] = cols - i;  // longest first
  for (int64_t i = 0; i < cols; ++i) from1[static_cast<size_t>(i)] = cols - i;
  std::vector<int64_t> lens, accepted;
  for (int64_t r = 0; r < reqs; ++r) {
    lens.push_back(*gen::Pick(upto));
    accepted.push_back(*gen::Pick(from1));
  }
  p.Set("C", cols);
  p.Set("lens", lens);
  p.Set("accepted", accepted);
  p.Set("spare", *gen::Pick(std::vector<int64_t>{1, 0, 2}));
  p.Set("nulls", *gen::Pick(std::vector<int64_t>{1, 0, 2, 3}));
}

void Build(Case& c) {
  const Params& p = c.params;
  const std::vector<int64_t> lens = seq::IntList(p, "lens"), accepted = seq::IntList(p, "accepted");
  const int64_t reqs = static_cast<int64_t>(lens.size()), cols = p.Int("C");
  const std::vector<int64_t> cu = seq::Cumulative(lens);
  int64_t slots = reqs * cols + p.Int("spare");
  std::vector<int64_t> table = DrawSlots(p.seed, "state_indices", reqs * cols, slots, p.Int("nulls"));
  // Keep most out rows live (a NULL start zero-fills a whole request): give
  // NULL starts fresh slots until at most half the tokens are zeroed.
  int64_t zeroed = 0;
  for (int64_t r = 0; r < reqs; ++r) {
    if (table[static_cast<size_t>(r * cols + accepted[static_cast<size_t>(r)] - 1)] < 0) zeroed += lens[static_cast<size_t>(r)];
  }
  for (int64_t r = 0; r < reqs && 2 * zeroed > cu.back(); ++r) {
    int64_t& start = table[static_cast<size_t>(r * cols + accepted[static_cast<size_t>(r)] - 1)];
    if (start < 0 && lens[static_cast<size_t>(r)] > 0) {
      start = slots++;
      zeroed -= lens[static_cast<size_t>(r)];
    }
  }
  AddTokenInputs(c, cu.back());
  AddState(c, slots);
  seq::AddInts(c, "cu_seqlens", vt::DType::kI32, {reqs + 1}, cu);
  seq::AddInts(c, "state_indices", vt::DType::kI32, {reqs, cols}, table);
  seq::AddInts(c, "num_accepted_tokens", vt::DType::kI32, {reqs}, accepted);
  AddOut(c, cu.back());
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::GdnSpecDecode(ctx, ws["out"], ws["q"], ws["k"], ws["v"], ws["g"], ws["beta"], ws["state"], ws["cu_seqlens"],
                    ws["state_indices"], ws["num_accepted_tokens"], {ws.params().F32("scale")});
}

struct Meta {
  std::vector<int64_t> cu, table, accepted;
  int64_t cols = 1;
  int64_t Start(std::size_t r) const { return table[r * static_cast<size_t>(cols) + static_cast<size_t>(accepted[r] - 1)]; }
  int64_t Snap(std::size_t r, int64_t t) const { return table[r * static_cast<size_t>(cols) + static_cast<size_t>(t)]; }
};

Meta MetaOf(const Case& c) {
  const TensorData& idx = c.Get("state_indices");
  return {seq::Ints(c.Get("cu_seqlens")), seq::Ints(idx), seq::Ints(c.Get("num_accepted_tokens")), idx.shape[1]};
}

template <class S>
oracle::GdnResult<S> Eval(const Case& c) {
  const Meta m = MetaOf(c);
  const TensorData& q = c.Get("q");
  return oracle::GdnSpecDecode<S>(Dims(c.params), q.shape[0], m.cu, m.table, m.cols, m.accepted, q.Values(),
                                  entry::Vals(c, "k"), entry::Vals(c, "v"), entry::Vals(c, "g"), entry::Vals(c, "beta"),
                                  entry::Vals(c, "state"), c.params.F32("scale"));
}

// A request with a NULL start slot zero-fills its out rows; the slots no
// token of a live request snapshots keep their bytes.
ExactRows Exact(const Case& c) {
  const Meta m = MetaOf(c);
  ExactRows r;
  r.out.assign(static_cast<size_t>(c.Get("q").shape[0]), false);
  r.state.assign(static_cast<size_t>(c.Get("state").shape[0]), true);
  for (std::size_t q = 0; q + 1 < m.cu.size(); ++q) {
    for (int64_t t = m.cu[q]; t < m.cu[q + 1]; ++t) {
      if (m.Start(q) < 0) {
        r.out[static_cast<size_t>(t)] = true;
      } else if (m.Snap(q, t - m.cu[q]) >= 0) {
        r.state[static_cast<size_t>(m.Snap(q, t - m.cu[q]))] = false;
      }
    }
  }
  return r;
}

// The rollback property: slot idx[r][j] after the step holds exactly the
// state gdn_prefill reaches from the start slot over the request's first j+1
// tokens (so accepting j+1 tokens next step and starting from that slot IS
// running only those tokens); the out rows agree too.
ClaimOutcome Rollback(const OpSpec&, const Case& c, const vt::ExecContext& ctx, const Execution& full) {
  const Meta m = MetaOf(c);
  const OpSpec* prefill = FindOp("gdn_prefill");
  for (std::size_t r = 0; r + 1 < m.cu.size(); ++r) {
    if (m.Start(r) < 0) continue;
    const int64_t lo = m.cu[r];
    for (int64_t j = 0; lo + j < m.cu[r + 1]; ++j) {
      Case pc;
      pc.params = c.params;
      pc.params.op = "gdn_prefill";
      pc.params.Set("lens", std::vector<int64_t>{j + 1});
      pc.tensors = TokenRows(c, lo, lo + j + 1);
      pc.tensors.push_back(LeadingRows(c.Get("state"), m.Start(r), m.Start(r) + 1, "state", Role::kInPlace));
      pc.tensors.push_back(OneSequence("query_start_loc", j + 1));
      pc.tensors.push_back(seq::Poisoned("out", c.Get("out").dtype, LeadingRows(c.Get("out"), lo, lo + j + 1, "o", Role::kOutput).shape));
      const Execution e = Execute(*prefill, pc, ctx);
      if (!e.guard_error.empty()) return ClaimOutcome::Violated("gdn_prefill: " + e.guard_error);
      const std::string where = "request " + std::to_string(r) + ", j = " + std::to_string(j) + ": ";
      const std::string dout = DiffBytes(e.after.Get("out"), LeadingRows(full.after.Get("out"), lo, lo + j + 1, "out", Role::kOutput));
      if (!dout.empty()) return ClaimOutcome::Violated(where + "out " + dout);
      const int64_t snap = m.Snap(r, j);
      if (snap < 0) continue;
      const std::string dst = DiffBytes(e.after.Get("state"), LeadingRows(full.after.Get("state"), snap, snap + 1, "state", Role::kInPlace));
      if (!dst.empty()) return ClaimOutcome::Violated(where + "slot " + std::to_string(snap) + " " + dst);
    }
  }
  return ClaimOutcome::Holds();
}

// Batch invariance: each request in its own call (same cache) gives its out
// rows and its snapshot slots.
ClaimOutcome RequestsAlone(const OpSpec& op, const Case& c, const vt::ExecContext& ctx, const Execution& full) {
  const Meta m = MetaOf(c);
  for (std::size_t r = 0; r + 1 < m.cu.size(); ++r) {
    const int64_t lo = m.cu[r], hi = m.cu[r + 1];
    Case one;
    one.params = c.params;
    one.params.Set("lens", std::vector<int64_t>{hi - lo});
    one.params.Set("accepted", std::vector<int64_t>{m.accepted[r]});
    one.tensors = TokenRows(c, lo, hi);
    one.tensors.push_back(CopyTensor(c.Get("state"), "state", Role::kInPlace));
    one.tensors.push_back(OneSequence("cu_seqlens", hi - lo));
    one.tensors.push_back(LeadingRows(c.Get("state_indices"), static_cast<int64_t>(r), static_cast<int64_t>(r) + 1, "state_indices", Role::kInput));
    one.tensors.push_back(TensorFromValues("num_accepted_tokens", vt::DType::kI32, {1}, Role::kInput,
                                           {static_cast<double>(m.accepted[r])}));
    one.tensors.push_back(seq::Poisoned("out", c.Get("out").dtype, LeadingRows(c.Get("out"), lo, hi, "o", Role::kOutput).shape));
    const Execution e = Execute(op, one, ctx);
    if (!e.guard_error.empty()) return ClaimOutcome::Violated(e.guard_error);
    const std::string where = "request " + std::to_string(r) + ": ";
    const std::string dout = DiffBytes(e.after.Get("out"), LeadingRows(full.after.Get("out"), lo, hi, "out", Role::kOutput));
    if (!dout.empty()) return ClaimOutcome::Violated(where + "out " + dout);
    if (m.Start(r) < 0) continue;
    for (int64_t t = 0; t < hi - lo; ++t) {
      const int64_t s = m.Snap(r, t);
      if (s < 0) continue;
      const std::string d = DiffBytes(LeadingRows(e.after.Get("state"), s, s + 1, "state", Role::kInPlace),
                                      LeadingRows(full.after.Get("state"), s, s + 1, "state", Role::kInPlace));
      if (!d.empty()) return ClaimOutcome::Violated(where + "slot " + std::to_string(s) + " " + d);
    }
  }
  return ClaimOutcome::Holds();
}

// Request 1's start slot := request 0's first snapshot slot (made live): two
// requests writing one slot.
ErrorCase StartIsOtherSnapshot() {
  return seq::EditInts("start_slot_is_other_snapshot", "state_indices", "duplicate",
                       [](std::vector<int64_t>& v, const Case& c) {
                         const TensorData& idx = c.Get("state_indices");
                         const int64_t reqs = idx.shape[0], cols = idx.shape[1];
                         if (reqs < 2) return false;
                         const std::vector<int64_t> acc = seq::Declared(c.Get("num_accepted_tokens"));
                         int64_t snap = v[0];
                         if (snap < 0) snap = v[0] = c.Get("state").shape[0] - 1;
                         v[static_cast<size_t>(cols + acc[1] - 1)] = snap;
                         return v[static_cast<size_t>(cols + acc[1] - 1)] == v[0] && static_cast<size_t>(cols + acc[1] - 1) != 0;
                       });
}

std::vector<ErrorCase> Errors() {
  std::vector<ErrorCase> e = {
      mut::Dim("k", 1, 1),
      mut::Dim("v", 0, 1),
      mut::Dim("v", 2, 1),
      mut::Dim("out", 1, 1),
      mut::Dim("g", 0, 1),
      mut::Dim("beta", 1, 1),
      mut::Dim("state", 3, 1),
      mut::Dim("cu_seqlens", 0, 1),
      mut::Dim("num_accepted_tokens", 0, 1),
      ErrorCase("state_indices_no_columns",
                [](Case& c) {
                  TensorData& t = c.Get("state_indices");
                  t.shape[1] = 0;
                  t.SetContiguous();
                  return true;
                },
                "C >= 1"),
      seq::Rebuilt("request_longer_than_columns", "token count",
                   [](Params& p) {
                     std::vector<int64_t> lens = seq::IntList(p, "lens");
                     if (lens.empty()) return false;
                     lens[0] = p.Int("C") + 1;
                     p.Set("lens", lens);
                     return true;
                   },
                   Build),
      seq::EditInts("accepted_zero", "num_accepted_tokens", "num_accepted",
                    [](std::vector<int64_t>& v, const Case&) {
                      if (v.empty()) return false;
                      v[0] = 0;
                      return true;
                    }),
      seq::EditInts("accepted_past_columns", "num_accepted_tokens", "num_accepted",
                    [](std::vector<int64_t>& v, const Case& c) {
                      if (v.empty()) return false;
                      v.back() = c.Get("state_indices").shape[1] + 1;
                      return true;
                    }),
      StartIsOtherSnapshot()};
  seq::Append(e, SlotErrors("state_indices"));
  seq::Append(e, CumulativeErrors("cu", "cu_seqlens"));
  return e;
}

}  // namespace
}  // namespace local_gdn_spec_decode

OpSpec Spec_gdn_spec_decode() {
  using namespace local_gdn_spec_decode;
  return RecurrenceSpec({
      .name = "gdn_spec_decode",
      .dtypes = "cpu: q,k,v f32/f16/bf16; g,beta f32; out f32/bf16; state f32 (in place); cu_seqlens, state_indices "
                "[R,C], num_accepted_tokens i32",
      .hooks = {Draw, Build, Run, Eval<double>, Eval<float>},
      .exact = Exact,
      .operands = TokenOperands({entry::Operand("cu_seqlens", {vt::DType::kI32}, entry::kContiguous, {1}),
                                 entry::Operand("state_indices", {vt::DType::kI32}, entry::kContiguous, {2}),
                                 entry::Operand("num_accepted_tokens", {vt::DType::kI32}, entry::kContiguous, {1})}),
      .errors = Errors(),
      .claims = {seq::AfterRun("rollback",
                               "spec-decode slot idx[r][j] == gdn_prefill of request r's first j+1 tokens from its "
                               "start slot",
                               nullptr, Rollback),
                 seq::AfterRun("split_requests",
                               "a batch of requests == each request in its own call (out rows and snapshot slots, "
                               "bit for bit)",
                               [](const Params& p) { return p.args.at("lens").size() >= 2; }, RequestsAlone)},
  });
}

}  // namespace vt::conform
