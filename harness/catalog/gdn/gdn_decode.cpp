// Catalog entry: gdn_decode (fla fused_recurrent / fused_sigmoid_gating decode
// with ssm_state_indices: one token per request on its cache slot).
#include "harness/catalog/catalog.h"
#include "harness/catalog/gdn/gdn_recurrence_entry.h"
#include "harness/golden/golden_check.h"
#include "oracles/gdn/gdn_decode.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

using namespace gdn_entry;

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("gdn_decode");
    DrawHeads(p, tier);
    p.Set("scale", static_cast<double>(ScaleOf(p)));
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
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t b = p.Int("T");
  AddTokenInputs(c, b);
  if (p.Flag("indexed")) {
    const int64_t slots = b + p.Int("spare");
    AddState(c, slots);
    AddI32(c, "state_idx", {b}, DrawSlots(p.seed, "state_idx", b, slots, p.Int("nulls")));
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
  return idx != nullptr ? I32Values(*idx) : std::vector<int64_t>{};
}

template <class S>
oracle::GdnResult<S> Eval(const Case& c) {
  const TensorData& q = c.Get("q");
  return oracle::GdnDecode<S>(Dims(c.params), q.shape[0], Slots(c), q.Values(), entry::Vals(c, "k"),
                              entry::Vals(c, "v"), entry::Vals(c, "g"), entry::Vals(c, "beta"),
                              entry::Vals(c, "state"), c.params.F32("scale"));
}

OracleResult Oracle(const Case& c) {
  const auto truth = Eval<double>(c);
  const auto f32 = Eval<float>(c);
  const oracle::GdnDims d = Dims(c.params);
  const std::vector<int64_t> idx = Slots(c);
  const int64_t slots = c.Get("state").shape[0];
  std::vector<bool> null_rows(static_cast<size_t>(c.Get("q").shape[0]), false);
  std::vector<bool> untouched(static_cast<size_t>(slots), idx.empty() ? false : true);
  for (std::size_t b = 0; b < idx.size(); ++b) {
    if (idx[b] < 0) null_rows[b] = true;
    else untouched[static_cast<size_t>(idx[b])] = false;
  }
  return {{"out", BaselineOf(truth.out, f32.out, c.Get("out").fmt, ExpandRows(null_rows, d.hv * d.dv))},
          {"state", BaselineOf(truth.state, f32.state, oracle::Fmt::kF32, ExpandRows(untouched, d.SlotElems()))}};
}

std::map<std::string, std::vector<double>> OracleF32(const Case& c) { return OutAndStateF32(Eval<float>(c)); }

std::vector<OutputSpec> Outputs(const Case&) { return OutAndStateOutputs(); }

// Batch invariance (direct rows): a sub-range of requests with their state rows.
Claim SplitBatch() {
  Claim cl = RowSlice({"q", "k", "v", "g", "beta", "state", "out"});
  cl.name = "split_batch";
  auto inner = cl.applies;
  cl.applies = [inner](const Params& p) { return !p.Flag("indexed") && (!inner || inner(p)); };
  return cl;
}

// Batch invariance (indexed): a sub-range of requests against the same cache
// gives the same out rows (the cache is checked by the oracle mode).
Claim SplitIndexedBatch() {
  Claim cl = RowSlice({"q", "k", "v", "g", "beta", "state_idx", "out"});
  cl.name = "split_indexed_batch";
  auto inner = cl.applies;
  cl.applies = [inner](const Params& p) { return p.Flag("indexed") && (!inner || inner(p)); };
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
  p.Set("Hk", q.shape[1]);
  p.Set("ratio", v.shape[1] / q.shape[1]);
  p.Set("Dk", q.shape[2]);
  p.Set("Dv", v.shape[2]);
  p.Set("sk", "rsqrt");
  p.Set("decay", "mild");
  p.Set("init", "unit");
  p.Set("scale", g.ArgNum("scale", 1.0 / std::sqrt(static_cast<double>(q.shape[2]))));
  p.Set("T", batch);
  if (decomposed) {
    p.Set("qk", DTypeKey(q));
    p.Set("v", DTypeKey(v));
    p.Set("out", DTypeKey(GoldenOutputLike(g, out, "out")));
    p.Set("indexed", 0);
    m.c.params = p;
    m.c.tensors = {GoldenTensor(g, "q_l2", "q", Role::kInput), GoldenTensor(g, "k_l2", "k", Role::kInput),
                   GoldenTensor(g, "v", "v", Role::kInput),    GoldenTensor(g, "g", "g", Role::kInput),
                   GoldenTensor(g, "beta", "beta", Role::kInput), GoldenTensor(g, "state_in", "state", Role::kInPlace),
                   GoldenOutputLike(g, out, "out")};
    m.compare = {{"out", out}, {"state", state_out}};
    return m;
  }
  if (!g.ArgBool("use_qk_l2norm_in_kernel", false)) {
    throw GoldenUnsupported("raw q/k without in-kernel normalisation and no q_l2/k_l2/g/beta to decompose");
  }
  if (g.ArgNum("softplus_threshold", 20.0) != 20.0) throw GoldenUnsupported("a softplus threshold other than 20");
  m = MapPackedFromParts(g, p, out, state_out);
  return m;
}

}  // namespace

OpSpec Spec_gdn_decode() {
  OpSpec s;
  s.name = "gdn_decode";
  s.family = "gdn";
  s.dtypes = "cpu: q,k,v f32/f16/bf16; g,beta f32; out f32/bf16; state f32 (in place); state_idx i32 (optional)";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = Oracle;
  s.oracle_f32 = OracleF32;
  s.outputs = Outputs;
  s.contract = {TokenOperandsAnd({entry::Operand("state_idx", {vt::DType::kI32}, entry::kContiguous, {1}),
                                  entry::Written("state", entry::kF32, entry::kContiguous, {4}),
                                  entry::Written("out", entry::kFloatOut, entry::kContiguous, {3})}),
                {entry::PositiveFinite("scale")}};
  s.errors = TokenDimErrors();
  s.errors.push_back(mut::Dim("state_idx", 0, 1));
  s.errors.push_back(ErrorCase("state_rows_not_batch",
                        [](Case& c) {
                          if (c.Find("state_idx") != nullptr) return false;
                          c.Get("state").shape[0] += 1;
                          c.Get("state").SetContiguous();
                          return true;
                        },
                        "one row per request"));
  for (ErrorCase& e : SlotErrors("state_idx")) s.errors.push_back(std::move(e));
  for (ErrorCase& e : HeadErrors(Build)) s.errors.push_back(std::move(e));
  s.claims = {SplitBatch(), SplitIndexedBatch()};
  s.goldens = {{"gdn_decode", GoldenDecode}};
  return s;
}

}  // namespace vt::conform
