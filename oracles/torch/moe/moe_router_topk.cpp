// moe_router_topk after vLLM's CPU router (fused_moe/router/cpu_router.py:
// _softmax_topk; grouped_topk's noaux_tc path for num_expert_group > 0):
//   scores = softmax(logits.float()) or sigmoid; sel = scores + bias;
//   groups: the sum of each group's two best sel (with a bias; one expert:
//   -inf) or its max, the topk_group best kept; top_k of the kept sel;
//   weights = the unbiased scores of the picks, renormalized by their sum,
//   times routed_scaling_factor.
// The op contract's special rows (a NaN or +inf logit, or only -inf ones:
// every probability 0) are taken as written in docs/ops/moe.md.
//
// Ties: torch.topk promises no order among equal values, and an f32
// evaluation may order scores closer than its rounding error either way. So
// a row's picks given by the kernel (Input::given) are adopted when they are
// an order the float64 scores allow: distinct, from groups that can be kept,
// in non-increasing order, and no candidate left out certainly above a pick
// - "certainly" meaning by more than kTieRel of the larger magnitude plus
// kTieAbs (an f32 evaluation's error: a few ulps of each exp / divide / add,
// and f32's underflow below 2^-126). Any other row takes the reference's own
// picks (highest first, lowest index on a tie) and so fails on its ids.
#include <algorithm>
#include <cmath>

#include "oracles/torch/torch_ops.h"

namespace vt::torchref {
namespace local_moe_router_topk {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

constexpr double kTieRel = 0x1p-18;  // 64 f32 ulps
constexpr double kTieAbs = 0x1p-118;

bool Above(double a, double b) {
  if (std::isinf(a) || std::isinf(b)) return a > b;
  return a - b > kTieRel * std::max(std::fabs(a), std::fabs(b)) + kTieAbs;
}

struct Row {
  std::vector<double> score, sel, group_score;
  int64_t group_size = 0;
};

// Groups that may be kept: fewer than topk_group others certainly above.
std::vector<bool> Keepable(const Row& r, int64_t topk_group) {
  const size_t n = r.group_score.size();
  std::vector<bool> ok(n);
  for (size_t g = 0; g < n; ++g) {
    int64_t above = 0;
    for (size_t o = 0; o < n; ++o) above += (o != g && Above(r.group_score[o], r.group_score[g])) ? 1 : 0;
    ok[g] = above < topk_group;
  }
  return ok;
}

// Groups that are kept whatever the order of near-ties: fewer than topk_group
// others possibly at or above them.
std::vector<bool> SurelyKept(const Row& r, int64_t topk_group) {
  const size_t n = r.group_score.size();
  std::vector<bool> ok(n);
  for (size_t g = 0; g < n; ++g) {
    int64_t rivals = 0;
    for (size_t o = 0; o < n; ++o) rivals += (o != g && !Above(r.group_score[g], r.group_score[o])) ? 1 : 0;
    ok[g] = rivals < topk_group;
  }
  return ok;
}

bool PicksAllowed(const Row& r, const std::vector<int64_t>& picks, int64_t topk_group) {
  const int64_t e = static_cast<int64_t>(r.sel.size());
  const size_t groups = r.group_score.size();
  std::vector<bool> picked(static_cast<size_t>(e), false);
  std::vector<bool> group_used(groups, false);
  const std::vector<bool> keepable = Keepable(r, topk_group), kept = SurelyKept(r, topk_group);
  int64_t used = 0;
  for (const int64_t p : picks) {
    if (p < 0 || p >= e || picked[static_cast<size_t>(p)]) return false;
    picked[static_cast<size_t>(p)] = true;
    const size_t g = static_cast<size_t>(p / r.group_size);
    if (!keepable[g]) return false;
    if (!group_used[g]) ++used;
    group_used[g] = true;
  }
  if (used > topk_group) return false;
  for (size_t i = 1; i < picks.size(); ++i) {
    if (Above(r.sel[static_cast<size_t>(picks[i])], r.sel[static_cast<size_t>(picks[i - 1])])) return false;
  }
  for (int64_t c = 0; c < e; ++c) {
    const size_t g = static_cast<size_t>(c / r.group_size);
    if (picked[static_cast<size_t>(c)] || !(group_used[g] || kept[g])) continue;
    for (const int64_t p : picks) {
      if (Above(r.sel[static_cast<size_t>(c)], r.sel[static_cast<size_t>(p)])) return false;
    }
  }
  return true;
}

// The reference's own picks: groups, then experts, highest first (a stable
// sort: the lowest index on a tie).
std::vector<int64_t> OwnPicks(const Row& r, int64_t k, int64_t topk_group) {
  const at::Tensor gs = at::tensor(r.group_score, at::kDouble);
  const at::Tensor gorder = std::get<1>(gs.sort(true, 0, true));
  std::vector<bool> kept(r.group_score.size(), false);
  for (int64_t i = 0; i < topk_group; ++i) kept[static_cast<size_t>(gorder[i].item<int64_t>())] = true;
  std::vector<double> masked = r.sel;
  for (size_t c = 0; c < masked.size(); ++c) {
    if (!kept[c / static_cast<size_t>(r.group_size)]) masked[c] = -INFINITY;
  }
  const at::Tensor order = std::get<1>(at::tensor(masked, at::kDouble).sort(true, 0, true));
  std::vector<int64_t> picks;
  for (int64_t i = 0; i < k; ++i) picks.push_back(order[i].item<int64_t>());
  return picks;
}

}  // namespace
}  // namespace local_moe_router_topk

Result Ref_moe_router_topk(const Input& in) {
  using namespace local_moe_router_topk;
  const at::Tensor logits = Load(in, "logits");
  const int64_t t = logits.size(0), e = logits.size(1), k = in.Int("top_k");
  const int64_t n_group = in.Int("num_expert_group");
  const bool grouped = n_group > 0;
  const int64_t groups = grouped ? n_group : 1, topk_group = grouped ? in.Int("topk_group") : 1;
  at::Tensor scores;
  if (in.Str("scoring") == "sigmoid") {
    scores = Sigmoid(logits);
  } else {
    // softmax; a row with a NaN or +inf logit, or no finite-or-(-inf) mass,
    // scores 0 everywhere (the contract's guard).
    // softmax as max-shifted exp over the sum; x - max is one f32 operation
    // on given values, so it is the op's f32 difference (torch_ops.h
    // F32Product's rule; a float64 difference misses it by up to 5e-7 of a
    // peaked row's small weights - vt-fuzz found it).
    const at::Tensor bad = (logits.isnan() | logits.isposinf()).any(-1, true) | logits.isneginf().all(-1, true);
    const at::Tensor x = at::where(bad, at::zeros_like(logits), logits);
    const at::Tensor e = at::exp(RoundF32(x - std::get<0>(x.max(-1, true))));
    scores = at::where(bad, at::zeros_like(logits), e / e.sum(at::IntArrayRef{-1}, true));
  }
  const bool has_bias = in.Has("bias");
  const at::Tensor sel = has_bias ? scores + Load(in, "bias").unsqueeze(0) : scores;
  at::Tensor group_score;
  const at::Tensor per_group = sel.view({t, groups, e / groups});
  if (has_bias) {
    group_score = e / groups >= 2 ? std::get<0>(per_group.topk(2, -1)).sum(at::IntArrayRef{-1}) : at::full({t, groups}, -INFINITY, sel.options());
  } else {
    group_score = std::get<0>(per_group.max(-1));
  }
  const at::Tensor given = in.given.count("indices") ? View(in.given.at("indices")).to(at::kLong).contiguous() : at::Tensor();
  at::Tensor ids = at::empty({t, k}, at::kLong), weights = at::empty({t, k}, at::kDouble);
  const double rsf = grouped ? in.F32("routed_scaling_factor") : 1.0;
  for (int64_t i = 0; i < t; ++i) {
    Row r{Values(scores[i]), Values(sel[i]), Values(group_score[i]), e / groups};
    std::vector<int64_t> picks;
    if (given.defined()) picks = std::vector<int64_t>(given[i].data_ptr<int64_t>(), given[i].data_ptr<int64_t>() + k);
    if (!given.defined() || !PicksAllowed(r, picks, topk_group)) picks = OwnPicks(r, k, topk_group);
    const at::Tensor pick = at::tensor(picks, at::kLong);
    at::Tensor w = scores[i].index_select(0, pick);
    if (in.Flag("renormalize")) {
      const double sum = w.sum().item<double>();
      if (sum > 0.0) w = w / sum;
    }
    ids[i].copy_(pick);
    weights[i].copy_(w * rsf);
  }
  return {{"weights", Out(weights)}, {"indices", Out(ids)}};
}

}  // namespace vt::torchref
