// Catalog entry: gdn_decode (fla fused_recurrent / fused_sigmoid_gating decode
// with ssm_state_indices: one token per request on its cache slot).
#include "harness/catalog/catalog.h"
#include "harness/catalog/gdn/gdn_recurrence_entry.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "oracles/gdn/gdn_decode.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_gdn_decode {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

using namespace gdn_entry;

void Draw(Params& p, Tier tier) {
  DrawHeads(p, tier);
  const int64_t budget = TokenBudget(p, tier == Tier::kSmoke ? 20000 : 30000);
  p.Set("T", std::min(budget, *gen::Pick(std::vector<int64_t>{3, 1, 2, 5, 8, 0, 17})));
  // indexed: state is a cache addressed through state_idx (with spare
  // slots that must stay untouched, and NULL requests).
  const int64_t indexed = *gen::Pick(std::vector<int64_t>{1, 0, 1});
  p.Set("indexed", indexed);
  if (indexed == 1) {
    p.Set("spare", *gen::Pick(std::vector<int64_t>{1, 0, 3}));
    p.Set("nulls", *gen::Pick(std::vector<int64_t>{1, 0, 2}));
  }
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t b = p.Int("T");
  AddTokenInputs(c, b);
  if (p.Flag("indexed")) {
    const int64_t slots = b + p.Int("spare");
    AddState(c, slots);
    seq::AddInts(c, "state_idx", vt::DType::kI32, {b}, DrawSlots(p.seed, "state_idx", b, slots, p.Int("nulls")));
  } else {
    AddState(c, b);
  }
  AddOut(c, b);
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::GdnDecode(ctx, ws["out"], ws["q"], ws["k"], ws["v"], ws["g"], ws["beta"], ws["state"], ws.Find("state_idx"),
                {ws.params().F32("scale")});
}

std::vector<int64_t> Slots(const Case& c) {
  const TensorData* idx = c.Find("state_idx");
  return idx != nullptr ? seq::Ints(*idx) : std::vector<int64_t>{};
}

template <class S>
oracle::GdnResult<S> Eval(const Case& c) {
  const TensorData& q = c.Get("q");
  return oracle::GdnDecode<S>(Dims(c.params), q.shape[0], Slots(c), q.Values(), entry::Vals(c, "k"),
                              entry::Vals(c, "v"), entry::Vals(c, "g"), entry::Vals(c, "beta"),
                              entry::Vals(c, "state"), c.params.F32("scale"));
}

// NULL requests' zero rows; with a cache (requests present), the slots no
// request names.
ExactRows Exact(const Case& c) {
  const std::vector<int64_t> idx = Slots(c);
  return SlotRows(idx, c.Get("q").shape[0], c.Get("state").shape[0], /*cache=*/!idx.empty());
}

// Batch invariance: a sub-range of requests, with their state rows (direct
// rows) or against the same cache (indexed: the cache is checked by the
// oracle mode).
Claim SplitBatch(const std::string& name, const std::string& rows, bool indexed) {
  Claim cl = RowSlice({"q", "k", "v", "g", "beta", rows, "out"});
  cl.name = name;
  auto inner = cl.applies;
  cl.applies = [inner, indexed](const Params& p) { return p.Flag("indexed") == indexed && (!inner || inner(p)); };
  return cl;
}

// fla decode goldens. With the decomposed chain's intermediates (q_l2, k_l2,
// g, beta): gdn_decode on them. With raw q/k and the gating inputs only
// (use_qk_l2norm_in_kernel): the fused form, run as gdn_packed_decode on
// [q | k | v] with state_idx 0..B-1 (cache line b = request b).
GoldenMapping GoldenDecode(const GoldenCase& g) {
  GoldenMapping m;
  const std::string out = GoldenPick(g, {"out", "o"});
  const std::string state_out = GoldenPick(g, {"state_out", "final_state"});
  const TensorData& v = g.Get("v");
  const int64_t batch = v.shape[0];
  const bool decomposed = g.Has("q_l2") && g.Has("k_l2") && g.Has("g") && g.Has("beta");
  if (g.Get(state_out).dtype != vt::DType::kF32 && decomposed) {
    throw GoldenUnsupported("a non-f32 state (the CPU decode state is f32)");
  }
  const TensorData& q = g.Get(decomposed ? "q_l2" : "q");
  Params p(decomposed ? "gdn_decode" : "gdn_packed_decode");
  SetHeads(p, q.shape[1], v.shape[1], q.shape[2], v.shape[2]);
  p.Set("scale", g.ArgNum("scale", 1.0 / std::sqrt(static_cast<double>(q.shape[2]))));
  p.Set("T", batch);
  if (decomposed) {
    p.Set("qk", DTypeKey(q));
    p.Set("v", DTypeKey(v));
    p.Set("out", DTypeKey(GoldenOutputLike(g, out, "out")));
    // A state cache addressed per request (vt-fuzz --upstream writes one:
    // state_idx into state_in's lines, no NULL request); else line b is
    // request b's.
    const bool indexed = g.Has("state_idx");
    p.Set("indexed", indexed ? 1 : 0);
    if (indexed) p.Set("spare", g.Get("state_in").shape[0] - batch);
    m.c.params = p;
    m.c.tensors = {GoldenTensor(g, "q_l2", "q", Role::kInput), GoldenTensor(g, "k_l2", "k", Role::kInput),
                   GoldenTensor(g, "v", "v", Role::kInput),    GoldenTensor(g, "g", "g", Role::kInput),
                   GoldenTensor(g, "beta", "beta", Role::kInput), GoldenTensor(g, "state_in", "state", Role::kInPlace),
                   GoldenOutputLike(g, out, "out")};
    if (indexed) m.c.tensors.push_back(GoldenTensor(g, "state_idx", "state_idx", Role::kInput));
    m.compare = {{"out", out}, {"state", state_out}};
    PerOutputTol(g, m);  // vt-fuzz --upstream's per-output bounds (none in the recorded captures)
    return m;
  }
  if (!g.ArgBool("use_qk_l2norm_in_kernel", false)) {
    throw GoldenUnsupported("raw q/k without in-kernel normalisation and no q_l2/k_l2/g/beta to decompose");
  }
  if (g.ArgNum("softplus_threshold", 20.0) != 20.0) throw GoldenUnsupported("a softplus threshold other than 20");
  m = MapPackedFromParts(g, p, out, state_out);
  return m;
}

// The inverse of GoldenDecode's decomposed form (vt-fuzz --upstream): the
// case as the "gdn_decode" runner key's call on the chain's intermediates -
// fla's fused_recurrent_gated_delta_rule over one-token sequences (the
// recurrence vLLM's GDN layer runs on pre-normalised q/k, g and beta;
// vt_regen/live.py gdn_decode). A NULL request has no upstream form: the
// kernel skips it and never writes its out row, where ours writes zeros.
// Measured in the Triton interpreter on the loaded 2-core machine: ~40 ms
// per program (one request, one value head, 32 value rows; T 8, Hv 12, Dv
// 128: 384 programs, 16.5 s), bounded at 48 programs (about 2 s) so a
// minute holds tens of cases; larger ones are the oracle mode's.
constexpr int64_t kUpstreamDecodePrograms = 48;

UpstreamCall UpstreamDecode(const Case& c) {
  const Params& p = c.params;
  RequireElements(c, "out");
  const std::vector<int64_t> idx = Slots(c);
  for (int64_t s : idx) {
    if (s < 0) throw GoldenUnsupported("a NULL request (upstream skips it, its out row unwritten; ours writes zeros)");
  }
  const TensorData& q = c.Get("q");
  const TensorData& v = c.Get("v");
  const int64_t batch = q.shape[0], hk = q.shape[1], dk = q.shape[2], hv = v.shape[1], dv = v.shape[2];
  const int64_t programs = batch * hv * ((dv + 31) / 32);
  if (programs > kUpstreamDecodePrograms) {
    throw GoldenUnsupported(std::to_string(programs) + " Triton programs (more than " +
                            std::to_string(kUpstreamDecodePrograms) + "): too slow in the Triton interpreter");
  }
  UpstreamCall u;
  u.op = "gdn_decode";
  u.args = {{"scale", p.Num("scale")}, {"Hk", hk}, {"Hv", hv}, {"Dk", dk}, {"Dv", dv}, {"batch", batch},
            {"use_qk_l2norm_in_kernel", false}};
  u.inputs = {UpstreamInput(c, "q", "q_l2"), UpstreamInput(c, "k", "k_l2"), UpstreamInput(c, "v", "v"),
              UpstreamInput(c, "g", "g"),    UpstreamInput(c, "beta", "beta"), UpstreamInput(c, "state", "state_in")};
  if (!idx.empty()) u.inputs.push_back(UpstreamInput(c, "state_idx", "state_idx"));
  u.outputs = {UpstreamOutput(c, "out", "out"), UpstreamOutput(c, "state", "state_out")};
  return u;
}

}  // namespace
}  // namespace local_gdn_decode

OpSpec Spec_gdn_decode() {
  using namespace local_gdn_decode;
  std::vector<ErrorCase> errors = TokenDimErrors();
  errors.push_back(mut::Dim("state_idx", 0, 1));
  errors.push_back(ErrorCase("state_rows_not_batch",
                             [](Case& c) {
                               if (c.Find("state_idx") != nullptr) return false;
                               c.Get("state").shape[0] += 1;
                               c.Get("state").SetContiguous();
                               return true;
                             },
                             "one row per request"));
  seq::Append(errors, SlotErrors("state_idx"));
  return RecurrenceSpec({
      .name = "gdn_decode",
      .dtypes = "cpu: q,k,v f32/f16/bf16; g,beta f32; out f32/bf16; state f32 (in place); state_idx i32 (optional)",
      .hooks = {Draw, Build, Run, Eval<double>, Eval<float>},
      .exact = Exact,
      .operands = TokenOperands({entry::Operand("state_idx", {vt::DType::kI32}, entry::kContiguous, {1})}),
      .errors = errors,
      .claims = {SplitBatch("split_batch", "state", false), SplitBatch("split_indexed_batch", "state_idx", true)},
      .goldens = {{"gdn_decode", GoldenDecode}},
  });
}

// sk, decay, init only choose the drawn scale and values (the golden holds
// both; SetHeads names any golden rsqrt/mild/unit); nulls how many requests
// are NULL (none here).
UpstreamMap UpstreamMap_gdn_decode() {
  using namespace local_gdn_decode;
  return {"gdn_decode", "gdn_decode", UpstreamDecode, {"sk", "decay", "init", "nulls"}};
}

}  // namespace vt::conform
