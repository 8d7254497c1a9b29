// The moe_block golden adapter: an end-to-end sparse MoE block (vLLM
// Qwen2/Qwen3-Next SparseMoeBlock; upstream reference: F.linear gate ->
// torch_topk (or grouped_topk) -> tests/kernels/utils.py::torch_experts ->
// the shared expert, gated by sigmoid(x . w_shared_gate) -> routed + shared)
// mapped onto a chain of the project's own kernels, each step through the
// public API:
//   router logits   matmul_bt(x, gate_w)                  [T,E], x's dtype (F.linear)
//   routing         moe_router_topk (every router arg the manifest carries)
//   per expert e    index_select(x, tokens routed to e) -> matmul_bt(., w13[e])
//                   -> silu_and_mul -> matmul_bt(., w2[e]) -> index_copy into
//                   expert_out[t, j, :] at the (token, slot) pairs with id e
//   shared expert   matmul_bt(x, w_shared_gate_up) -> silu_and_mul ->
//                   matmul_bt(., w_shared_down); its gate sigmoid(x . w_sg)
//                   from matmul_bt and moe_router_topk's sigmoid scores on one
//                   expert (grouped, one group: weight = sigmoid(logit) in
//                   f32), applied by moe_combine with k = 1
//   output          moe_combine(expert_out, weights, shared) - the case the
//                   checker runs and compares with the manifest's `out`.
// Intermediates are stored in x's dtype (f32, or bf16 as torch stores each op's
// result); what the chain cannot express is UNSUPPORTED with the reason.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "harness/catalog/claims.h"
#include "harness/catalog/composite/composite_adapters.h"
#include "harness/catalog/moe/moe_route_slice.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "oracles/moe/moe_router_topk.h"
#include "vt/error.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_moe_block {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

[[noreturn]] void Refuse(const GoldenCase& g, const std::string& why) {
  throw GoldenError(g.dir + "/manifest.json", "moe_block: " + why);
}

TensorData Blank(const std::string& name, vt::DType dt, std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return TensorFromValues(name, dt, std::move(shape), Role::kOutput, std::vector<double>(static_cast<size_t>(n), 0.0));
}

vt::Tensor ViewOf(TensorData& t) { return t.View(t.storage.data()); }

// Expert e's [rows, cols] matrix inside a contiguous [E, rows, cols] tensor.
vt::Tensor ExpertSlice(TensorData& w, int64_t e) {
  const int64_t rows = w.shape[1], cols = w.shape[2];
  unsigned char* base = w.storage.data() + static_cast<size_t>(e * rows * cols) * vt::SizeOf(w.dtype);
  return vt::Tensor::Contiguous(base, w.dtype, {rows, cols});
}

// y = silu_and_mul(matmul_bt(x, w_gate_up)) then matmul_bt(., w_down): one
// gated MLP, intermediates in `dt`.
TensorData GatedMlp(const vt::ExecContext& ctx, TensorData& x, const vt::Tensor& w_gate_up,
                    const vt::Tensor& w_down, vt::DType dt) {
  const int64_t n = x.shape[0];
  TensorData gu = Blank("gate_up", dt, {n, w_gate_up.shape[0]});
  vt::MatmulBT(ctx, ViewOf(gu), ViewOf(x), w_gate_up);
  TensorData act = Blank("act", dt, {n, w_gate_up.shape[0] / 2});
  vt::SiluAndMul(ctx, ViewOf(act), ViewOf(gu));
  TensorData y = Blank("y", dt, {n, w_down.shape[0]});
  vt::MatmulBT(ctx, ViewOf(y), ViewOf(act), w_down);
  return y;
}

}  // namespace
}  // namespace local_moe_block

// Router ties (docs/ops/moe.md, "Ties"): where upstream's recorded top-k ids
// (`topk_ids`, an intermediate) differ from the router kernel's and both are
// right under the Bounded scores of the logits the kernel saw - candidates
// tied exactly or within the bound, whose order torch.topk does not fix -
// the block follows upstream's choice on that row, with the weights the f32
// definition gives for it, so `out` compares like with like. A row where
// the kernel's pick is not right keeps it (and `out` then fails). Returns
// the verdict's line ("" when no row needed it).
std::string FollowTiedPicks(const TensorData& golden_ids, const TensorData& logits, const TensorData* bias,
                            const vt::MoeRouterTopKArgs& ra, TensorData& ids, TensorData& weights,
                            const TensorData* golden_logits) {
  const int64_t t = ids.shape[0], k = ids.shape[1], e = logits.shape[1];
  if (golden_ids.Numel() != t * k) return "";
  oracle::RouterSpec spec;
  spec.top_k = k;
  spec.renormalize = ra.renormalize;
  spec.sigmoid = ra.scoring_func == vt::MoeScoringFunc::kSigmoid;
  spec.n_group = ra.num_expert_group;
  spec.topk_group = ra.topk_group;
  spec.routed_scaling_factor = ra.routed_scaling_factor;
  const std::vector<double> x = logits.Values();
  std::vector<double> gid = golden_ids.Values();
  const std::vector<double> b = bias != nullptr ? bias->Values() : std::vector<double>{};
  const std::vector<double>* bp = bias != nullptr ? &b : nullptr;
  std::vector<double> kid = ids.Values(), kw = weights.Values();
  // |kernel logit - upstream logit| per element: the router's input is only
  // known to lie between the two. Upstream's matmul rounds apart from the
  // kernel's, so an exact tie in its logits may arrive split by a step in the
  // kernel's, which alone would make the kernel's pick "certain" and
  // upstream's wrong (on the regenerated cases measured so far both logits
  // were identical: this is for recorded GPU cases, whose matmul differs).
  std::vector<double> radius;
  if (golden_logits != nullptr && golden_logits->Numel() == t * e) {
    const std::vector<double> up = golden_logits->Values();
    radius.resize(x.size());
    for (std::size_t j = 0; j < x.size(); ++j) {
      const double d = std::fabs(x[j] - up[j]);
      radius[j] = std::isfinite(d) ? d : 0.0;
    }
  }
  // Upstream's ids in the spec's order (selection score descending, then
  // index): torch may return top-k unsorted (vLLM's CPU _softmax_topk did on
  // seed 1135319442: expert 0 first, ahead of a higher score), and the order
  // within a row is no part of the block's output but is of RouterPicksWhyNot.
  for (int64_t r = 0; r < t; ++r) {
    const auto row = oracle::RouterRowScores<oracle::Bounded>(x.data() + r * e, e, bp, spec);
    const auto first = gid.begin() + r * k;
    std::stable_sort(first, first + k, [&](double a, double b) {
      const auto ia = static_cast<std::size_t>(a), ib = static_cast<std::size_t>(b);
      const bool inside = ia < row.sel.size() && ib < row.sel.size();
      if (inside && row.sel[ia].v != row.sel[ib].v) return row.sel[ia].v > row.sel[ib].v;
      return a < b;
    });
  }
  const auto forced = oracle::MoeRouterTopK<float>(t, e, x, bp, spec, {&gid, oracle::RouterPicks::When::kAlways});
  std::string rows;
  int64_t n = 0;
  for (int64_t r = 0; r < t; ++r) {
    std::vector<int64_t> kp, gp;
    for (int64_t j = 0; j < k; ++j) {
      kp.push_back(static_cast<int64_t>(kid[static_cast<size_t>(r * k + j)]));
      gp.push_back(static_cast<int64_t>(gid[static_cast<size_t>(r * k + j)]));
    }
    if (std::is_permutation(kp.begin(), kp.end(), gp.begin())) continue;
    const auto row = oracle::RouterRowScores<oracle::Bounded>(x.data() + r * e, e, bp, spec,
                                                              radius.empty() ? nullptr : radius.data() + r * e);
    if (!oracle::RouterPicksWhyNot(row, spec, kp).empty() || !oracle::RouterPicksWhyNot(row, spec, gp).empty()) continue;
    for (int64_t j = 0; j < k; ++j) {
      kid[static_cast<size_t>(r * k + j)] = gid[static_cast<size_t>(r * k + j)];
      kw[static_cast<size_t>(r * k + j)] = forced.weights[static_cast<size_t>(r * k + j)];
    }
    if (n++ < 8) rows += (rows.empty() ? "" : ", ") + std::to_string(r);
  }
  if (n == 0) return "";
  ids.SetValues(kid);
  weights.SetValues(kw);
  return std::to_string(n) + " rows where upstream's top-k and the router kernel's differ among candidates tied "
         "within our bound (rows " + rows + (n > 8 ? ", ..." : "") + "): the block follows upstream's ids there";
}

GoldenMapping MapMoeBlock(const GoldenCase& g) {
  using namespace local_moe_block;
  const std::string activation = g.ArgStr("activation", "silu");
  if (activation != "silu") throw GoldenUnsupported("activation " + activation + " (the chain maps silu)");
  const std::string w13_layout = g.ArgStr("w13_layout", "");
  if (!w13_layout.empty() && w13_layout.find("gate rows 0..I-1") == std::string::npos) {
    throw GoldenUnsupported("w13_layout '" + w13_layout + "' (the chain maps gate rows first, then up)");
  }
  const std::string w2_layout = g.ArgStr("w2_layout", "");
  if (!w2_layout.empty() && w2_layout.find("[E, H, I]") == std::string::npos) {
    throw GoldenUnsupported("w2_layout '" + w2_layout + "' (the chain maps [E, H, I])");
  }
  for (const char* a : {"apply_router_weight_on_input", "expert_map", "custom_routing_function"}) {
    if (g.args.contains(a) && !g.args[a].is_null() && g.args[a] != false) {
      throw GoldenUnsupported(std::string("args.") + a);
    }
  }
  TensorData x = AsRows(GoldenTensor(g, GoldenPick(g, {"x", "hidden_states"}), "x", Role::kInput));
  if (x.dtype == vt::DType::kF16) {
    throw GoldenUnsupported("an f16 block (intermediates are stored as f32 or bf16 by this kernel set)");
  }
  const vt::DType dt = x.dtype;
  TensorData gate_w = GoldenTensor(g, GoldenPick(g, {"gate_w", "router_w"}), "gate_w", Role::kInput);
  TensorData w13 = GoldenTensor(g, GoldenPick(g, {"w13", "w1"}), "w13", Role::kInput);
  TensorData w2 = GoldenTensor(g, GoldenPick(g, {"w2"}), "w2", Role::kInput);
  const int64_t t = x.shape[0], h = x.shape[1];
  if (gate_w.shape.size() != 2 || gate_w.shape[1] != h) Refuse(g, "gate_w must be [E, hidden]");
  const int64_t e = gate_w.shape[0];
  if (w13.shape.size() != 3 || w13.shape[0] != e || w13.shape[2] != h || w13.shape[1] % 2 != 0) {
    Refuse(g, "w13 must be [E, 2I, hidden]");
  }
  const int64_t inter = w13.shape[1] / 2;
  if (w2.shape.size() != 3 || w2.shape[0] != e || w2.shape[1] != h || w2.shape[2] != inter) {
    Refuse(g, "w2 must be [E, hidden, I]");
  }
  if (const auto ne = g.ArgInt("num_experts"); ne && *ne != e) Refuse(g, "args.num_experts disagrees with gate_w");
  if (const auto hd = g.ArgInt("hidden"); hd && *hd != h) Refuse(g, "args.hidden disagrees with x");
  if (const auto mi = g.ArgInt("moe_intermediate"); mi && *mi != inter) Refuse(g, "args.moe_intermediate disagrees with w13");
  const auto k_arg = g.ArgInt("top_k");
  if (!k_arg) Refuse(g, "args.top_k is required");
  const int64_t k = *k_arg;
  const vt::ExecContext ctx{vt::Backend::kCPU, 1, false};

  // Router.
  TensorData logits = Blank("logits", dt, {t, e});
  TensorData weights = Blank("weights", vt::DType::kF32, {t, k});
  TensorData ids = Blank("indices", vt::DType::kI32, {t, k});
  vt::MoeRouterTopKArgs ra;
  ra.top_k = static_cast<int>(k);
  ra.renormalize = g.ArgBool("renormalize", true);
  const std::string scoring = g.ArgStr("scoring_func", "softmax");
  if (scoring != "softmax" && scoring != "sigmoid") throw GoldenUnsupported("scoring_func " + scoring);
  ra.scoring_func = scoring == "sigmoid" ? vt::MoeScoringFunc::kSigmoid : vt::MoeScoringFunc::kSoftmax;
  const int64_t ng_arg = g.ArgInt("num_expert_group").value_or(0);
  const bool grouped = g.ArgBool("use_grouped_topk", ng_arg > 0);
  ra.num_expert_group = grouped ? static_cast<int>(ng_arg) : 0;
  ra.topk_group = grouped ? static_cast<int>(g.ArgInt("topk_group").value_or(0)) : 0;
  const double rsf = g.ArgNum("routed_scaling_factor", 1.0);
  // Where the scale applies: in the router's weights (grouped_topk), or to
  // the assembled routed output before the shared add (moe_runner's
  // apply_routed_scale_to_output arm), when the manifest says so.
  const bool scale_output = g.ArgBool("apply_routed_scale_to_output", false);
  if (!scale_output) ra.routed_scaling_factor = static_cast<float>(rsf);
  TensorData bias;
  const bool has_bias = g.Has("e_score_correction_bias");
  if (has_bias) bias = GoldenTensor(g, "e_score_correction_bias", "bias", Role::kInput);
  if (!grouped && (scoring == "sigmoid" || has_bias || ra.routed_scaling_factor != 1.0f)) {
    ra.num_expert_group = 1;  // one group kept: fused_topk's sigmoid / bias variants
    ra.topk_group = 1;
  }
  try {
    vt::MatmulBT(ctx, ViewOf(logits), ViewOf(x), ViewOf(gate_w));
    vt::Tensor bias_view = has_bias ? ViewOf(bias) : vt::Tensor{};
    vt::MoeRouterTopK(ctx, ViewOf(weights), ViewOf(ids), ViewOf(logits), ra, has_bias ? &bias_view : nullptr);
    std::vector<GoldenMapping::SideCheck> ties;
    if (g.Has("topk_ids")) {
      const std::string line = FollowTiedPicks(g.Get("topk_ids"), logits, has_bias ? &bias : nullptr, ra, ids, weights,
                                               g.Has("router_logits") ? &g.Get("router_logits") : nullptr);
      if (!line.empty()) ties.push_back({"topk_ids", line, ""});
    }

    // Experts: expert_out[t, j, :] for every (token, slot) pair.
    TensorData expert_out = Blank("expert_out", dt, {t, k, h});
    vt::Tensor rows_view = vt::Tensor::Contiguous(expert_out.storage.data(), dt, {t * k, h});
    const auto id_values = ids.Values();
    for (int64_t ex = 0; ex < e; ++ex) {
      std::vector<double> tokens, slots;
      for (int64_t s = 0; s < t * k; ++s) {
        if (static_cast<int64_t>(id_values[static_cast<size_t>(s)]) != ex) continue;
        tokens.push_back(static_cast<double>(s / k));
        slots.push_back(static_cast<double>(s));
      }
      if (tokens.empty()) continue;
      const int64_t n = static_cast<int64_t>(tokens.size());
      TensorData tok = TensorFromValues("tok", vt::DType::kI32, {n}, Role::kInput, tokens);
      TensorData slot = TensorFromValues("slot", vt::DType::kI32, {n}, Role::kInput, slots);
      TensorData xe = Blank("xe", dt, {n, h});
      vt::IndexSelect(ctx, ViewOf(xe), ViewOf(x), ViewOf(tok));
      TensorData ye = GatedMlp(ctx, xe, ExpertSlice(w13, ex), ExpertSlice(w2, ex), dt);
      vt::IndexCopy(ctx, rows_view, ViewOf(ye), ViewOf(slot));
    }

    GoldenMapping m;
    m.run_op = "moe_combine";
    Params p("moe_combine");
    p.Set("expert_out", DTypeKey(expert_out));
    p.Set("out", DTypeKey(GoldenOutputLike(g, "out", "out")));
    p.Set("T", t);
    p.Set("K", k);
    p.Set("H", h);
    p.Set("routed_scale", scale_output ? rsf : 1.0);
    p.Set("scale", 1.0);
    expert_out.role = Role::kInput;
    weights.role = Role::kInput;
    m.c.tensors = {expert_out, weights};

    // Shared expert (absent in blocks without one), gated when w_shared_gate is given.
    if (g.Has("w_shared_gate_up") != g.Has("w_shared_down")) Refuse(g, "w_shared_gate_up and w_shared_down go together");
    p.Set("shared", "none");
    if (g.Has("w_shared_gate_up")) {
      TensorData wgu = GoldenTensor(g, "w_shared_gate_up", "w_shared_gate_up", Role::kInput);
      TensorData wd = GoldenTensor(g, "w_shared_down", "w_shared_down", Role::kInput);
      if (wgu.shape.size() != 2 || wgu.shape[1] != h || wgu.shape[0] % 2 != 0) Refuse(g, "w_shared_gate_up must be [2S, hidden]");
      if (wd.shape.size() != 2 || wd.shape[0] != h || wd.shape[1] != wgu.shape[0] / 2) Refuse(g, "w_shared_down must be [hidden, S]");
      TensorData shared = GatedMlp(ctx, x, ViewOf(wgu), ViewOf(wd), dt);
      if (g.Has("w_shared_gate")) {
        TensorData wsg = GoldenTensor(g, "w_shared_gate", "w_shared_gate", Role::kInput);
        if (wsg.Numel() != h) Refuse(g, "w_shared_gate must be [1, hidden]");
        wsg = AsRows(wsg);
        TensorData gl = Blank("gate_logit", dt, {t, 1});
        vt::MatmulBT(ctx, ViewOf(gl), ViewOf(x), ViewOf(wsg));
        TensorData sig = Blank("sig", vt::DType::kF32, {t, 1});
        TensorData zero = Blank("zero", vt::DType::kI32, {t, 1});
        vt::MoeRouterTopKArgs sa;
        sa.top_k = 1;
        sa.renormalize = false;
        sa.scoring_func = vt::MoeScoringFunc::kSigmoid;
        sa.num_expert_group = 1;
        sa.topk_group = 1;
        vt::MoeRouterTopK(ctx, ViewOf(sig), ViewOf(zero), ViewOf(gl), sa, nullptr);
        TensorData gated = Blank("shared", dt, {t, h});
        vt::Tensor shared3 = vt::Tensor::Contiguous(shared.storage.data(), dt, {t, 1, h});
        vt::MoeCombine(ctx, ViewOf(gated), shared3, ViewOf(sig), nullptr, 1.0f);
        shared = gated;
      }
      shared.name = "shared";
      shared.role = Role::kInput;
      p.Set("shared", DTypeKey(shared));
      m.c.tensors.push_back(shared);
    }
    m.c.params = p;
    m.c.tensors.push_back(AsRows(GoldenOutputLike(g, "out", "out")));
    m.compare = {{"out", "out"}};
    m.side_checks = ties;
    return m;
  } catch (const vt::Error& err) {
    throw GoldenUnsupported(std::string("a kernel of the chain refuses this case: ") + err.what());
  }
}

namespace local_moe_block {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// Every value finite and no -0 (an expert row comes back as v + 0s: -0 would
// come back +0).
bool PlainValues(const std::vector<double>& v) {
  for (double x : v) {
    if (!std::isfinite(x) || (x == 0.0 && std::signbit(x))) return false;
  }
  return true;
}

// The inverse of MapMoeBlock (vt-fuzz --upstream): a moe_combine case as the
// "moe_block" runner key's call - vLLM's block (F.linear router, the CPU
// router's _softmax_topk with renormalize, per expert F.linear ->
// SiluAndMul -> F.linear, the shared expert gated by sigmoid; vt_regen/
// ops_composite.py) with weights made so that every step hands the next
// exactly what the case holds. x row t is the unit vector e_t (T <= H), so
// the router logits are gate_w's column t - the logits the case's weights
// were drawn from (moe_route_slice.h: weights=router draws). Every expert has
// I = T columns: column t's gate row is 32 e_t and its up row e_t / 32, so
// token t's activation is silu(32) / 32 = 1 exactly (sigmoid(32) rounds to 1
// in f32) in its own column and silu(0) 0 = 0 elsewhere, and w2[e][:, t] is
// expert_out[t, j] for the slot j whose pick is e. The shared expert the same
// way (S = T, w_shared_down[:, t] = shared[t]), its gate row 32 on every
// token: sigmoid(32) = 1. routed_scale != 1 is vLLM's
// apply_routed_scale_to_output arm (the routed sum scaled before the shared
// add), which the adapter reads back. A narrow slice of moe_combine: softmax
// router weights (positive, summing to 1 per row), the shared term in
// expert_out's dtype, f32 or bf16 (the chain's intermediates), T <= H.
UpstreamCall UpstreamMoeBlock(const Case& c) {
  RequireElements(c, "out");
  const Params& p = c.params;
  const TensorData& eo = c.Get("expert_out");
  const vt::DType dt = eo.dtype;
  if (dt != vt::DType::kF32 && dt != vt::DType::kBF16) {
    throw GoldenUnsupported("expert_out of dtype " + DTypeKey(eo) + " (the chain's intermediates are f32 or bf16)");
  }
  const TensorData* sh = c.Find("shared");
  if (sh != nullptr && sh->dtype != dt) {
    throw GoldenUnsupported("a shared term of another dtype than expert_out (the chain stores both in x's dtype)");
  }
  const int64_t t = eo.shape[0], k = eo.shape[1], h = eo.shape[2], e = moe_slice::Experts(k);
  if (t > h) throw GoldenUnsupported("T > H (x's rows are unit vectors: T <= hidden)");
  const auto route = moe_slice::Route(p.seed, t, k);
  const std::vector<double> w = c.Get("weights").Values();
  for (int64_t i = 0; i < t * k; ++i) {
    if (w[static_cast<size_t>(i)] != static_cast<double>(route.weights[static_cast<size_t>(i)])) {
      throw GoldenUnsupported("weights not a softmax router's on the seed's logits (weights=router draws)");
    }
  }
  const std::vector<double> ev = eo.Values();
  const std::vector<double> sv = sh != nullptr ? sh->Values() : std::vector<double>{};
  if (!PlainValues(ev) || !PlainValues(sv)) throw GoldenUnsupported("a -0 or non-finite expert_out/shared value");
  const std::vector<double> logits = moe_slice::Logits(p.seed, t, e);
  const auto at = [](int64_t a, int64_t b, int64_t c_, int64_t n1, int64_t n2) {
    return static_cast<size_t>((a * n1 + b) * n2 + c_);
  };
  std::vector<double> x(static_cast<size_t>(t * h), 0.0), gate_w(static_cast<size_t>(e * h), 0.0);
  std::vector<double> w13(static_cast<size_t>(e * 2 * t * h), 0.0), w2(static_cast<size_t>(e * h * t), 0.0);
  for (int64_t r = 0; r < t; ++r) {
    x[static_cast<size_t>(r * h + r)] = 1.0;
    for (int64_t ex = 0; ex < e; ++ex) {
      gate_w[static_cast<size_t>(ex * h + r)] = logits[static_cast<size_t>(r * e + ex)];
      w13[at(ex, r, r, 2 * t, h)] = 32.0;
      w13[at(ex, t + r, r, 2 * t, h)] = 1.0 / 32.0;
    }
    for (int64_t j = 0; j < k; ++j) {
      const auto ex = static_cast<int64_t>(route.ids[static_cast<size_t>(r * k + j)]);
      for (int64_t col = 0; col < h; ++col) w2[at(ex, col, r, h, t)] = ev[at(r, j, col, k, h)];
    }
  }
  UpstreamCall u;
  u.op = "moe_block";
  u.args = {{"num_experts", e},         {"top_k", k},
            {"hidden", h},              {"moe_intermediate", t},
            {"renormalize", true},      {"scoring_func", "softmax"},
            {"activation", "silu"},     {"w13_layout", "[E, 2I, H], gate rows 0..I-1, up rows I..2I-1"},
            {"w2_layout", "[E, H, I]"}};
  const double rs = p.Num("routed_scale");
  if (rs != 1.0) {
    u.args["apply_routed_scale_to_output"] = true;
    u.args["routed_scaling_factor"] = rs;
  }
  u.inputs = {TensorFromValues("x", dt, {t, h}, Role::kInput, x),
              TensorFromValues("gate_w", dt, {e, h}, Role::kInput, gate_w),
              TensorFromValues("w13", dt, {e, 2 * t, h}, Role::kInput, w13),
              TensorFromValues("w2", dt, {e, h, t}, Role::kInput, w2)};
  if (sh != nullptr) {
    u.args["shared_intermediate"] = t;
    std::vector<double> wgu(static_cast<size_t>(2 * t * h), 0.0), wd(static_cast<size_t>(h * t), 0.0),
        wsg(static_cast<size_t>(h), 0.0);
    for (int64_t r = 0; r < t; ++r) {
      wgu[static_cast<size_t>(r * h + r)] = 32.0;
      wgu[static_cast<size_t>((t + r) * h + r)] = 1.0 / 32.0;
      wsg[static_cast<size_t>(r)] = 32.0;
      for (int64_t col = 0; col < h; ++col) wd[static_cast<size_t>(col * t + r)] = sv[static_cast<size_t>(r * h + col)];
    }
    u.inputs.push_back(TensorFromValues("w_shared_gate_up", dt, {2 * t, h}, Role::kInput, wgu));
    u.inputs.push_back(TensorFromValues("w_shared_down", dt, {h, t}, Role::kInput, wd));
    u.inputs.push_back(TensorFromValues("w_shared_gate", dt, {1, h}, Role::kInput, wsg));
  }
  u.outputs = {UpstreamOutput(c, "out", "out")};
  return u;
}

}  // namespace
}  // namespace local_moe_block

UpstreamMap UpstreamMap_moe_combine() {
  using namespace local_moe_block;
  return {"moe_combine", "moe_block", UpstreamMoeBlock, {"scale", "weights"}};
}

}  // namespace vt::conform
