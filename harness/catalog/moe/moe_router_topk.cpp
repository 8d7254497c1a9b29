// Catalog entry: moe_router_topk (vLLM fused_topk / topk_softmax, and the
// DeepSeek-V3 grouped_topk noaux_tc router). docs/ops/moe.md.
#include <algorithm>
#include <cmath>

#include "harness/catalog/catalog.h"
#include "harness/catalog/seq_entry.h"
#include "harness/core/rng.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "oracles/format.h"
#include "oracles/moe/moe_router_topk.h"
#include "vt/error.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_moe_router_topk {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

using entry::Bounded;

// Logit contents ("vals"): normal N(0, scale^2); grid = whole numbers in
// [-3, 3], so most rows hold exact ties (equal logits -> equal scores: a tie
// broken toward the higher index is an index error); near = the grid with a
// quarter of the elements moved one ulp of the logits' dtype off their
// integer (near-ties the truth still orders); special = the grid with NaN /
// +-inf in a quarter of the rows (the spec's zero-probability rules).
void Draw(Params& p, Tier tier) {
  p.Set("logits", *gen::FloatIn());
  p.Set("T", *gen::Rows(tier));
  const std::string mode = *gen::Pick(std::vector<std::string>{"softmax", "grouped", "grouped"});
  int64_t e = 0, ng = 0, tg = 0, k = 1;
  std::string scoring = "softmax", bias = "none";
  double rsf = 1.0;
  if (mode == "softmax") {
    e = *gen::Pick(std::vector<int64_t>{8, 1, 2, 3, 16, 60, 64, 128, 256});
    k = *gen::Pick(std::vector<int64_t>{2, 1, 3, 4, 6, 8});
  } else {
    ng = *gen::Pick(std::vector<int64_t>{4, 1, 2, 3, 8});
    // One-expert groups are frequent on purpose: with a bias their top-2
    // group score is -inf, the edge where the first unkept group must seed
    // the group scan.
    const int64_t gs = *gen::Pick(std::vector<int64_t>{2, 1, 3, 1, 4, 8, 1, 16, 32});
    e = ng * gs;
    tg = *rc::gen::inRange<int64_t>(1, ng + 1);
    k = *gen::Pick(std::vector<int64_t>{2, 1, 3, 4, 6, 8});
    scoring = *gen::Pick(std::vector<std::string>{"sigmoid", "softmax"});
    bias = *gen::Pick(std::vector<std::string>{"f32", "none"});
    rsf = *gen::Pick(std::vector<double>{2.5, 1.0, 0.5, 16.0});
    k = std::min(k, tg * gs);
  }
  k = std::min(k, e);
  p.Set("E", e);
  p.Set("top_k", k);
  p.Set("renormalize", *gen::Flag());
  p.Set("scoring", scoring);
  p.Set("num_expert_group", ng);
  p.Set("topk_group", tg);
  p.Set("routed_scaling_factor", rsf);
  p.Set("bias", bias);
  p.Set("vals", *gen::Pick(std::vector<std::string>{"grid", "normal", "near", "special"}));
  p.Set("scale", *gen::Pick(std::vector<double>{2.0, 1.0, 8.0, 0.01}));
}

bool SigmoidGrouped(const Params& p) { return p.Int("num_expert_group") > 0 && p.Str("scoring") == "sigmoid"; }

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), e = p.Int("E"), k = p.Int("top_k");
  const std::string vals = p.Str("vals");
  TensorData& lg = c.Input("logits", p.DType("logits"), {t, e},
                           vals == "normal" ? entry::Values(p) : Fill::Integer(-3, 3));
  const oracle::Fmt fmt = oracle::FmtOf(lg.dtype);
  const uint64_t stream = HashName(vals);
  if (vals == "near") {
    for (int64_t i = 0; i < t * e; ++i) {
      const uint64_t h = StreamValue(p.seed, stream, static_cast<uint64_t>(i));
      if (h % 4 != 0) continue;
      const double n = static_cast<double>(static_cast<int64_t>((h >> 8) % 7) - 3);
      const double ulp = oracle::UlpOf(fmt, n);
      lg.overrides.push_back({i, (h >> 16) % 2 ? n + ulp : n - ulp});
    }
  } else if (vals == "special") {
    // NaN logits under grouped sigmoid scoring are refused (H-8): not here.
    const std::vector<double> vocab = SigmoidGrouped(p)
                                          ? std::vector<double>{INFINITY, -INFINITY, -INFINITY}
                                          : std::vector<double>{NAN, INFINITY, -INFINITY, -INFINITY};
    // A special row may legitimately route with weight 0 everywhere: at most
    // half the rows are special, so that the reference is never mostly zero
    // (the trust rule would refuse to vouch; vt-fuzz found T = 1 and
    // T = 5 with 3 special rows doing that). T = 1 therefore has none.
    int64_t special = 0;
    for (int64_t r = 0; r < t; ++r) {
      const uint64_t h = StreamValue(p.seed, stream, static_cast<uint64_t>(r));
      if (h % 4 != 0 || 2 * (special + 1) > t) continue;
      ++special;
      for (int n = 0; n < 2; ++n) {
        const uint64_t hn = SplitMix64(h + static_cast<uint64_t>(n));
        lg.overrides.push_back({r * e + static_cast<int64_t>(hn % static_cast<uint64_t>(e)),
                                vocab[(hn >> 20) % vocab.size()]});
      }
    }
  }
  if (p.Str("bias") != "none") {
    // Grid logits meet a grid bias (equal logit + equal bias: an exact tie of
    // selection scores); otherwise upstream's randn * 0.1 scale.
    c.Input("bias", vt::DType::kF32, {e}, vals == "normal" ? Fill::Normal(0.0, 0.1) : Fill::Integer(-1, 1));
  }
  c.Output("weights", vt::DType::kF32, {t, k});
  c.Output("indices", vt::DType::kI32, {t, k});
}

vt::MoeRouterTopKArgs ArgsOf(const Params& p) {
  vt::MoeRouterTopKArgs a;
  a.top_k = static_cast<int>(p.Int("top_k"));
  a.renormalize = p.Flag("renormalize");
  const std::string sf = p.Str("scoring");
  // Any other name stands for a value outside the enum (error case scoring_unknown).
  a.scoring_func = sf == "sigmoid"   ? vt::MoeScoringFunc::kSigmoid
                   : sf == "softmax" ? vt::MoeScoringFunc::kSoftmax
                                     : static_cast<vt::MoeScoringFunc>(7);
  a.num_expert_group = static_cast<int>(p.Int("num_expert_group"));
  a.topk_group = static_cast<int>(p.Int("topk_group"));
  a.routed_scaling_factor = p.F32("routed_scaling_factor");
  return a;
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::MoeRouterTopK(ctx, ws["weights"], ws["indices"], ws["logits"], ArgsOf(ws.params()), ws.Find("bias"));
}

oracle::RouterSpec SpecOf(const Params& p) {
  oracle::RouterSpec s;
  s.top_k = p.Int("top_k");
  s.renormalize = p.Flag("renormalize");
  s.sigmoid = p.Str("scoring") == "sigmoid";
  s.n_group = p.Int("num_expert_group");
  s.topk_group = p.Int("topk_group");
  s.routed_scaling_factor = p.F32("routed_scaling_factor");
  return s;
}

template <class S>
entry::Outs<S> Eval(const Case& c, const Case* got = nullptr) {
  const TensorData& lg = c.Get("logits");
  const int64_t t = lg.shape[0], e = lg.shape[1];
  const auto x = lg.Values();
  const TensorData* b = c.Find("bias");
  const std::vector<double> bias = b != nullptr ? b->Values() : std::vector<double>{};
  const oracle::RouterSpec spec = SpecOf(c.params);
  const std::vector<double>* bp = b != nullptr ? &bias : nullptr;
  oracle::RouterOut<S> r;
  if constexpr (std::is_same_v<S, Bounded>) {
    if (got != nullptr) {
      // Tie-aware: rows whose kernel picks are a right order take them.
      const std::vector<double> ids = got->Get("indices").Values();
      r = oracle::MoeRouterTopK<Bounded>(t, e, x, bp, spec, {&ids, oracle::RouterPicks::When::kValid});
    } else {
      // Ambiguous rows (bounds that cannot order two competing scores) take
      // the f32 definition's ids; everywhere else the truth decides.
      const auto f = oracle::MoeRouterTopK<float>(t, e, x, bp, spec);
      r = oracle::MoeRouterTopK<Bounded>(t, e, x, bp, spec, {&f.ids, oracle::RouterPicks::When::kAmbiguous});
    }
  } else {
    r = oracle::MoeRouterTopK<S>(t, e, x, bp, spec);
  }
  std::vector<S> ids;
  for (double id : r.ids) ids.push_back(oracle::In<S>(id));
  return {{"weights", r.weights}, {"indices", ids}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"weights", Bound("scores in f32 (softmax: max, expf, an ordered sum, a divide; sigmoid: expf, "
                            "+1, a divide), the picked unbiased scores summed in order, a divide "
                            "(renormalize), a product (routed scaling): running error bound of each "
                            "step (docs/ops/moe.md)")},
          {"indices", Exact("expert ids are a selection, judged tie-aware: a row's ids must be an order "
                            "the truth allows (candidates tied exactly or within the bound in any order; "
                            "weights then those of the ids chosen); the spec's tie rule, lowest index "
                            "first, is held by the f32 definition (docs/ops/moe.md, Ties); one wrong id fails"),
           /*zeros_are_data=*/true}};
}

// Renormalized weights of a row sum to routed_scaling_factor: each is
// fl(fl(w_j / fl(sum)) * rsf) with the sum of k terms, so the row sum is
// within rsf * ((k + 1) u + O(u^2)) of rsf; (k + 2) u * |rsf| bounds it.
Claim RenormSum() {
  Claim c;
  c.name = "renorm_sum";
  c.statement = "with renormalize, each row's weights sum to routed_scaling_factor within (k+2)u|rsf|";
  c.applies = [](const Params& p) { return p.Flag("renormalize"); };
  c.check = [](const OpSpec& op, const Case& in, const vt::ExecContext& ctx) {
    const Execution run = Execute(op, in, ctx);
    if (!run.guard_error.empty()) return ClaimOutcome::Violated(run.guard_error);
    const TensorData& w = run.after.Get("weights");
    const int64_t t = w.shape[0], k = w.shape[1];
    const double rsf = in.params.F32("routed_scaling_factor");
    const double bound = static_cast<double>(k + 2) * oracle::kU32 * std::fabs(rsf);
    const auto v = w.Values();
    int64_t checked = 0;
    for (int64_t r = 0; r < t; ++r) {
      double sum = 0.0;
      bool all_zero = true;
      for (int64_t j = 0; j < k; ++j) {
        sum += v[static_cast<size_t>(r * k + j)];
        all_zero = all_zero && v[static_cast<size_t>(r * k + j)] == 0.0;
      }
      if (all_zero) continue;  // every picked score 0: the spec divides by 1
      ++checked;
      if (!(std::fabs(sum - rsf) <= bound)) {
        return ClaimOutcome::Violated("row " + std::to_string(r) + ": weights sum to " + std::to_string(sum) +
                                      ", want " + std::to_string(rsf) + " within " + std::to_string(bound));
      }
    }
    if (checked == 0) return ClaimOutcome::NotApplicable("no row with a nonzero weight");
    return ClaimOutcome::Holds();
  };
  return c;
}

// The ungrouped router is the grouped one with a single group kept (group
// max, no bias, softmax scores, scaling 1): the same greedy top-k.
Case AsOneGroup(const Case& c) {
  Case d = c;
  d.params.Set("num_expert_group", 1);
  d.params.Set("topk_group", 1);
  return d;
}

// An error case that edits args (and only args) of cases `when` accepts.
ErrorCase ArgCase(std::string name, std::function<bool(const Params&)> when,
                  std::function<void(Params&)> edit, std::string expect) {
  return {std::move(name),
          [when, edit](Case& c) {
            if (!when(c.params)) return false;
            edit(c.params);
            return true;
          },
          std::move(expect)};
}

bool Grouped(const Params& p) { return p.Int("num_expert_group") > 0; }
bool Ungrouped(const Params& p) { return p.Int("num_expert_group") == 0; }

// One element of a tensor holds v (a data-dependent refusal).
ErrorCase Holds(std::string name, std::string tensor, double v, std::function<bool(const Params&)> when,
                std::string expect) {
  return {std::move(name),
          [tensor, v, when](Case& c) {
            TensorData* t = c.Find(tensor);
            if (!when(c.params) || t == nullptr || t->Numel() == 0) return false;
            t->overrides.push_back({t->Numel() / 2, v});
            return true;
          },
          std::move(expect)};
}

std::vector<ErrorCase> Errors() {
  using P = const Params&;
  return {
      ArgCase("top_k_0", [](P) { return true; }, [](Params& p) { p.Set("top_k", 0); }, "top_k"),
      ArgCase("top_k_above_E", [](P) { return true; }, [](Params& p) { p.Set("top_k", p.Int("E") + 1); }, "top_k"),
      ArgCase("num_expert_group_negative", Ungrouped, [](Params& p) { p.Set("num_expert_group", -1); },
              "num_expert_group"),
      ArgCase("num_expert_group_not_dividing", Grouped,
              [](Params& p) { p.Set("num_expert_group", p.Int("E") + 1); }, "divisible"),
      ArgCase("topk_group_0", Grouped, [](Params& p) { p.Set("topk_group", 0); }, "topk_group"),
      ArgCase("topk_group_above_groups", Grouped,
              [](Params& p) { p.Set("topk_group", p.Int("num_expert_group") + 1); }, "topk_group"),
      {"top_k_above_surviving",
       [](Case& c) {
         Params& p = c.params;
         if (!Grouped(p)) return false;
         const int64_t survive = p.Int("topk_group") * (p.Int("E") / p.Int("num_expert_group"));
         if (survive + 1 > p.Int("E")) return false;
         p.Set("top_k", survive + 1);
         c.Get("weights").shape[1] = survive + 1;
         c.Get("weights").SetContiguous();
         c.Get("indices").shape[1] = survive + 1;
         c.Get("indices").SetContiguous();
         return true;
       },
       "surviving"},
      ArgCase("topk_group_ungrouped", Ungrouped, [](Params& p) { p.Set("topk_group", 1); }, "topk_group"),
      ArgCase("sigmoid_ungrouped", Ungrouped, [](Params& p) { p.Set("scoring", "sigmoid"); }, "sigmoid"),
      mut::Arg("scoring", "unknown"),
      ArgCase("routed_scaling_ungrouped", Ungrouped, [](Params& p) { p.Set("routed_scaling_factor", 2.0); },
              "routed_scaling_factor"),
      {"bias_ungrouped",
       [](Case& c) {
         if (!Ungrouped(c.params) || c.Find("bias") != nullptr) return false;
         c.Input("bias", vt::DType::kF32, {c.params.Int("E")}, Fill::Normal(0.0, 0.1));
         return true;
       },
       "e_score_correction_bias"},
      Holds("bias_nan", "bias", NAN, Grouped, "H-8"),
      Holds("bias_minus_inf", "bias", -INFINITY, Grouped, "H-8"),
      Holds("logits_nan_sigmoid", "logits", NAN, SigmoidGrouped, "H-8"),
      mut::Dim("bias", 0, 1),
      mut::Dim("weights", 0, 1),
      mut::Dim("weights", 1, 1),
      mut::Dim("indices", 0, -1),
      mut::Dim("indices", 1, 1),
      mut::AddDim("logits"),
      mut::DropDim("weights"),
  };
}

// --- goldens -----------------------------------------------------------------

// The recorded layouts: vllm.cpp's captures (torch_topk: sorted by weight) and
// the project's regeneration (the CPU router, re-sorted by weight). Upstream's
// top-k order is unspecified (torch.topk sorted=False in grouped_topk), and
// the grouped kernel orders by the BIASED selection score, so each golden row
// is re-laid into the kernel's expert order where the sets agree (leftover
// golden entries keep their order and then fail the comparison).
Params RouterParams(const GoldenCase& g, const TensorData& logits, int64_t k) {
  const int64_t e = logits.shape[1];
  if (const auto ne = g.ArgInt("num_experts"); ne && *ne != e) {
    throw GoldenError(g.dir + "/manifest.json", "args.num_experts disagrees with the logits' last dim");
  }
  const std::string scoring = g.ArgStr("scoring_func", "softmax");
  if (scoring != "softmax" && scoring != "sigmoid") throw GoldenUnsupported("scoring_func " + scoring);
  const bool has_bias = g.Has("e_score_correction_bias") || g.Has("bias");
  const double rsf = g.ArgNum("routed_scaling_factor", 1.0);
  int64_t ng = g.ArgInt("num_expert_group").value_or(0);
  int64_t tg = g.ArgInt("topk_group").value_or(0);
  const bool grouped = g.ArgBool("use_grouped_topk", ng > 0);
  if (!grouped) {
    ng = 0;
    tg = 0;
  }
  // Ungrouped sigmoid scores, a bias or a scaling outside grouped routing
  // (fused_topk's sigmoid / bias variants): one group kept is the same math.
  if (!grouped && (scoring == "sigmoid" || has_bias || rsf != 1.0)) {
    ng = 1;
    tg = 1;
  }
  if (grouped && ng <= 0) throw GoldenUnsupported("use_grouped_topk without num_expert_group");
  if (!g.ArgStr("custom_routing_function", "").empty()) throw GoldenUnsupported("custom_routing_function");
  Params p("moe_router_topk");
  p.Set("logits", DTypeKey(logits));
  p.Set("T", logits.shape[0]);
  p.Set("E", e);
  p.Set("top_k", k);
  p.Set("renormalize", g.ArgBool("renormalize", true) ? 1 : 0);
  p.Set("scoring", scoring);
  p.Set("num_expert_group", ng);
  p.Set("topk_group", tg);
  p.Set("routed_scaling_factor", rsf);
  p.Set("bias", has_bias ? "f32" : "none");
  p.Set("vals", "normal");
  p.Set("scale", 1.0);
  return p;
}

// Re-lay golden rows [t, k] into the order of the kernel's ids. Where
// upstream picked the same experts, its weights move with its ids. Where it
// picked others, and both choices are right under our bounds (candidates tied
// exactly or within the bound: RouterPicksWhyNot), the row takes the kernel's
// ids, and upstream's weights moved by what the swap changes in the oracle's
// weights (the truth's, with each choice forced) - nothing for an exact tie
// without a bias. Otherwise the leftover golden entries keep their order and
// fail the comparison: a pick outside the tied set is wrong.
struct Relaid {
  TensorData ids, weights;
  std::vector<int64_t> tied_rows;
};

Relaid Relay(const Case& c, const std::vector<double>& kid, const TensorData& gid_t, const TensorData& gw_t) {
  const auto gid = gid_t.Values(), gw = gw_t.Values();
  const int64_t t = gid_t.shape[0], k = gid_t.shape[1];
  const TensorData& lg = c.Get("logits");
  const int64_t e = lg.shape[1];
  const auto x = lg.Values();
  const TensorData* b = c.Find("bias");
  const std::vector<double> bias = b != nullptr ? b->Values() : std::vector<double>{};
  const std::vector<double>* bp = b != nullptr ? &bias : nullptr;
  const oracle::RouterSpec spec = SpecOf(c.params);
  using When = oracle::RouterPicks::When;
  const auto wk = oracle::MoeRouterTopK<Bounded>(t, e, x, bp, spec, {&kid, When::kAlways}).weights;
  const auto wg = oracle::MoeRouterTopK<Bounded>(t, e, x, bp, spec, {&gid, When::kAlways}).weights;
  Relaid out;
  std::vector<double> ri(gid.size()), rw(gw.size());
  for (int64_t r = 0; r < t; ++r) {
    const auto at = [&](int64_t j) { return static_cast<size_t>(r * k + j); };
    std::vector<int64_t> kp, gp;
    for (int64_t j = 0; j < k; ++j) {
      kp.push_back(static_cast<int64_t>(kid[at(j)]));
      gp.push_back(static_cast<int64_t>(gid[at(j)]));
    }
    const bool same_set = std::is_permutation(kp.begin(), kp.end(), gp.begin());
    bool tied = false;
    if (!same_set) {
      const auto row = oracle::RouterRowScores<Bounded>(x.data() + r * e, e, bp, spec);
      // The golden's row is laid out by weight, not by the selection score
      // (with a bias they differ): its picks are judged as a set, taken in
      // selection order (vt-fuzz --upstream: grid logits and a grid bias,
      // an exact tie broken the other way, was refused for its layout).
      std::vector<int64_t> gsel = gp;
      std::stable_sort(gsel.begin(), gsel.end(), [&](int64_t a, int64_t b) {
        return row.sel[static_cast<size_t>(a)].v > row.sel[static_cast<size_t>(b)].v;
      });
      tied = oracle::RouterPicksWhyNot(row, spec, kp).empty() && oracle::RouterPicksWhyNot(row, spec, gsel).empty();
      if (tied) out.tied_rows.push_back(r);
    }
    // Pair each kernel place with a golden place: the same id first, then the
    // remaining places in order.
    std::vector<char> used(static_cast<size_t>(k), 0);
    std::vector<int64_t> partner(static_cast<size_t>(k), -1);
    for (int64_t j = 0; j < k; ++j) {
      for (int64_t q = 0; q < k; ++q) {
        if (!used[static_cast<size_t>(q)] && gp[static_cast<size_t>(q)] == kp[static_cast<size_t>(j)]) {
          used[static_cast<size_t>(q)] = 1;
          partner[static_cast<size_t>(j)] = q;
          break;
        }
      }
    }
    int64_t next = 0;
    for (int64_t j = 0; j < k; ++j) {
      if (partner[static_cast<size_t>(j)] >= 0) continue;
      while (used[static_cast<size_t>(next)]) ++next;
      used[static_cast<size_t>(next)] = 1;
      partner[static_cast<size_t>(j)] = next;
    }
    for (int64_t j = 0; j < k; ++j) {
      const int64_t q = partner[static_cast<size_t>(j)];
      ri[at(j)] = tied ? kid[at(j)] : gid[at(q)];
      rw[at(j)] = tied ? gw[at(q)] + (wk[at(j)].v - wg[at(q)].v) : gw[at(q)];
    }
  }
  out.ids = TensorFromValues(gid_t.name, gid_t.dtype, gid_t.shape, Role::kOutput, ri);
  out.weights = TensorFromValues(gw_t.name, gw_t.dtype, gw_t.shape, Role::kOutput, rw);
  return out;
}

GoldenMapping GoldenRouter(const GoldenCase& g) {
  GoldenMapping m;
  const TensorData logits = AsRows(GoldenTensor(g, GoldenPick(g, {"logits", "router_logits", "gating_output"}),
                                                "logits", Role::kInput));
  const std::string wname = GoldenPick(g, {"topk_weights", "weights"});
  const std::string iname = GoldenPick(g, {"topk_ids", "indices", "topk_indices"});
  const TensorData gw = AsRows(CopyTensor(g.Get(wname), wname, Role::kOutput));
  const TensorData gi = AsRows(CopyTensor(g.Get(iname), iname, Role::kOutput));
  const int64_t k = g.ArgInt("top_k").value_or(gi.shape[1]);
  if (gi.shape[1] != k || gw.shape[1] != k || gi.shape[0] != logits.shape[0]) {
    throw GoldenError(g.dir + "/manifest.json", "topk tensors must be [T, top_k]");
  }
  m.c.params = RouterParams(g, logits, k);
  m.c.tensors = {logits};
  if (m.c.params.Str("bias") != "none") {
    TensorData b = GoldenTensor(g, GoldenPick(g, {"e_score_correction_bias", "bias"}), "bias", Role::kInput);
    if (b.dtype != vt::DType::kF32) throw GoldenUnsupported("a bias that is not f32");
    m.c.tensors.push_back(b);
  }
  // Only the outputs are materialised (poisoned): the inputs hold the golden's values.
  MaterializeTensor(m.c.Output("weights", vt::DType::kF32, {logits.shape[0], k}), 0);
  MaterializeTensor(m.c.Output("indices", vt::DType::kI32, {logits.shape[0], k}), 0);
  const OpSpec* op = FindOp("moe_router_topk");
  Execution run;
  try {
    run = Execute(*op, m.c, vt::ExecContext{vt::Backend::kCPU, 1, false});
  } catch (const vt::Error& e) {
    throw GoldenUnsupported(std::string("the kernel refuses this case: ") + e.what());
  }
  Relaid re = Relay(m.c, run.after.Get("indices").Values(), gi, gw);
  if (!re.tied_rows.empty()) {
    std::string rows;
    for (size_t i = 0; i < re.tied_rows.size() && i < 8; ++i) rows += (i ? ", " : "") + std::to_string(re.tied_rows[i]);
    if (re.tied_rows.size() > 8) rows += ", ...";
    m.side_checks.push_back({iname, std::to_string(re.tied_rows.size()) +
                                        " rows where upstream and the kernel picked different experts among "
                                        "candidates tied within our bound (rows " + rows +
                                        "): judged on the kernel's ids, upstream's weights moved by the swap",
                             ""});
  }
  m.golden_relaid[iname] = re.ids;
  m.golden_relaid[wname] = re.weights;
  m.compare = {{"weights", wname}, {"indices", iname}};
  PerOutputTol(g, m);  // vt-fuzz --upstream: ids exact, weights their derived bound
  return m;
}

// The inverse for vt-fuzz --upstream: the CPU router's call (ops_more._route).
UpstreamCall UpstreamRouter(const Case& c) {
  const Params& p = c.params;
  RequireElements(c, "weights");
  // The port's zero-probability rules for NaN / inf logits (H-8) are its own;
  // a golden cannot vouch for non-finite inputs.
  if (p.Str("vals") == "special") throw GoldenUnsupported("non-finite logits (the port's own rules, H-8)");
  const int64_t ng = p.Int("num_expert_group");
  const bool grouped = ng > 0;
  // Upstream's group score with a bias is the sum of the group's top 2
  // biased scores: torch.topk(2) raises on a one-expert group, where the
  // port defines the score as -inf.
  if (grouped && p.Str("bias") != "none" && p.Int("E") / ng < 2) {
    throw GoldenUnsupported("a bias with one-expert groups (upstream's topk(2) over the group raises)");
  }
  UpstreamCall u;
  u.op = "moe_router_topk";
  u.args = {{"num_experts", p.Int("E")}, {"top_k", p.Int("top_k")}, {"renormalize", p.Flag("renormalize")},
            {"scoring_func", p.Str("scoring")}};
  if (grouped) {
    u.args["use_grouped_topk"] = true;
    u.args["num_expert_group"] = ng;
    u.args["topk_group"] = p.Int("topk_group");
    u.args["routed_scaling_factor"] = p.Num("routed_scaling_factor");
  }
  u.inputs = {UpstreamInput(c, "logits", "logits")};
  if (p.Str("bias") != "none") u.inputs.push_back(UpstreamInput(c, "bias", "e_score_correction_bias"));
  u.outputs = {UpstreamOutput(c, "weights", "topk_weights"), UpstreamOutput(c, "indices", "topk_ids")};
  return u;
}

}  // namespace
}  // namespace local_moe_router_topk

OpSpec Spec_moe_router_topk() {
  using namespace local_moe_router_topk;
  OpSpec s = seq::Basics("moe_router_topk", "moe",
                         "cpu: logits f32/f16/bf16 [T,E]; bias f32 [E] (grouped); weights f32 [T,k]; indices i32 [T,k]",
                         Draw, Build, Run);
  s.oracle = [](const Case& c) { return entry::ToOracleResult(Eval<entry::Bounded>(c)); };
  s.oracle_given = [](const Case& c, const Case& got) { return entry::ToOracleResult(Eval<entry::Bounded>(c, &got)); };
  s.oracle_f32 = entry::F32([](const Case& c) { return Eval<float>(c); });
  s.outputs = Outputs;
  s.contract = {{entry::Operand("logits", entry::kFloatIn, entry::kContiguous, {2}),
                 entry::Operand("bias", entry::kF32, entry::kContiguous, {1}),
                 entry::Written("weights", entry::kF32, entry::kContiguous, {2}),
                 entry::Written("indices", {vt::DType::kI32}, entry::kContiguous, {2})},
                {entry::Finite("routed_scaling_factor")}};
  s.errors = Errors();
  s.claims = {
      RowSlice({"logits", "weights", "indices"}),
      SameAs("one_group", "the ungrouped router == the grouped router with one group, kept (softmax, no bias)",
             Ungrouped, "moe_router_topk", AsOneGroup, {{"weights", "weights"}, {"indices", "indices"}}),
      RenormSum(),
  };
  s.goldens = {{"moe_router_topk", GoldenRouter}, {"moe_router_top_k", GoldenRouter}};
  // Ids are data (expert 0 is an id); weights of rows whose logits hold NaN
  // or +inf are 0 by definition, at most a quarter of the rows.
  s.max_zero_fraction = 0.5;
  return s;
}

UpstreamMap UpstreamMap_moe_router_topk() {
  using namespace local_moe_router_topk;
  // vals and scale only choose the logits' values (the golden holds them)
  return {"moe_router_topk", "moe_router_topk", UpstreamRouter, {"vals", "scale"}};
}

}  // namespace vt::conform
