// moe_router_topk CPU kernel (vLLM topk_softmax / grouped_topk noaux_tc).
// Per token, in f32:
//   scores   softmax: m = max over the row (NaN skipped), ex_j = expf(x_j - m),
//            s = sum of ex_j in order, p_j = s > 0 ? ex_j / s : 0, a
//            non-finite p_j becomes 0; sigmoid (grouped): 1 / (1 + expf(-x_j)).
//   ungrouped  k greedy rounds, each the first maximum (strict '>', ascending
//            index: the lowest index wins a tie) among unchosen experts.
//   grouped  sel_j = score_j + bias_j; group score = top-2 sum of sel (with a
//            bias) or max of sel (without); topk_group greedy rounds over
//            the groups (the first unkept group seeds each scan, so -inf
//            scores still keep a group); experts of dropped groups get
//            sel = -inf; k greedy rounds over sel (strict '>' from -inf:
//            only sel > -inf is selectable), the weight is the UNBIASED score.
//   renormalize  w_j /= (sum of the k weights in order), a sum <= 0 (or NaN)
//            replaced by 1; grouped: then w_j *= routed_scaling_factor
//            (skipped when exactly 1).
// Contract (validated): shapes, dtypes, contiguity, group arithmetic, and on
// the grouped path at least top_k selectable experts (H-8), so a greedy round
// always finds one. Split: rows (tokens).
#include <cmath>
#include <vector>

#include "api/kernel_types.h"
#include "cpu/moe/moe_rows.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

// p = softmax(x) over n experts as the spec evaluates it.
void SoftmaxRow(const float* x, int64_t n, float* p) {
  float m = -INFINITY;
  for (int64_t j = 0; j < n; ++j) m = x[j] > m ? x[j] : m;  // NaN never replaces m
  float s = 0.0f;
  for (int64_t j = 0; j < n; ++j) {
    p[j] = std::exp(x[j] - m);
    s += p[j];
  }
  for (int64_t j = 0; j < n; ++j) {
    const float q = s > 0.0f ? p[j] / s : 0.0f;
    p[j] = std::isfinite(q) ? q : 0.0f;
  }
}

void Renormalize(float* w, int k, float sum) {
  if (!(sum > 0.0f)) sum = 1.0f;
  for (int j = 0; j < k; ++j) w[j] /= sum;
}

void UngroupedRow(const float* x, int64_t e, int k, bool renormalize, float* p, char* taken,
                  float* w, int32_t* ids) {
  SoftmaxRow(x, e, p);
  for (int64_t j = 0; j < e; ++j) taken[j] = 0;
  float sum = 0.0f;
  for (int r = 0; r < k; ++r) {
    int64_t best = -1;
    float best_v = -INFINITY;
    for (int64_t j = 0; j < e; ++j) {
      if (!taken[j] && p[j] > best_v) {
        best_v = p[j];
        best = j;
      }
    }
    taken[best] = 1;  // p >= 0 > -inf: every round finds one
    w[r] = best_v;
    ids[r] = static_cast<int32_t>(best);
    sum += best_v;
  }
  if (renormalize) Renormalize(w, k, sum);
}

struct GroupedScratch {
  std::vector<float> score, sel, gscore;
  std::vector<char> keep;
};

void GroupedRow(const float* x, const float* bias, int64_t e, const MoeRouterTopKArgs& a,
                GroupedScratch& s, float* w, int32_t* ids) {
  const int64_t ng = a.num_expert_group, gs = e / ng;
  float* score = s.score.data();
  float* sel = s.sel.data();
  if (a.scoring_func == MoeScoringFunc::kSigmoid) {
    for (int64_t j = 0; j < e; ++j) score[j] = 1.0f / (1.0f + std::exp(-x[j]));
  } else {
    SoftmaxRow(x, e, score);
  }
  for (int64_t j = 0; j < e; ++j) sel[j] = bias != nullptr ? score[j] + bias[j] : score[j];
  for (int64_t g = 0; g < ng; ++g) {
    const float* v = sel + g * gs;
    float first = -INFINITY, second = -INFINITY;
    for (int64_t j = 0; j < gs; ++j) {
      if (v[j] > first) {
        second = first;
        first = v[j];
      } else if (v[j] > second) {
        second = v[j];
      }
    }
    // Without a bias the group score is the max; with one, the top-2 sum
    // (a one-expert group sums with -inf: honest, and still keepable below).
    s.gscore[static_cast<size_t>(g)] = bias != nullptr ? first + second : first;
    s.keep[static_cast<size_t>(g)] = 0;
  }
  for (int r = 0; r < a.topk_group; ++r) {
    int64_t best = -1;
    for (int64_t g = 0; g < ng; ++g) {
      if (s.keep[static_cast<size_t>(g)]) continue;
      if (best < 0 || s.gscore[static_cast<size_t>(g)] > s.gscore[static_cast<size_t>(best)]) best = g;
    }
    s.keep[static_cast<size_t>(best)] = 1;
  }
  for (int64_t g = 0; g < ng; ++g) {
    if (s.keep[static_cast<size_t>(g)]) continue;
    for (int64_t j = 0; j < gs; ++j) sel[g * gs + j] = -INFINITY;
  }
  float sum = 0.0f;
  for (int r = 0; r < a.top_k; ++r) {
    int64_t best = 0;  // unreachable fallback: the validator guarantees a candidate
    float best_v = -INFINITY;
    for (int64_t j = 0; j < e; ++j) {
      if (sel[j] > best_v) {
        best_v = sel[j];
        best = j;
      }
    }
    sel[best] = -INFINITY;
    w[r] = score[best];
    ids[r] = static_cast<int32_t>(best);
    sum += w[r];
  }
  if (a.renormalize) Renormalize(w, a.top_k, sum);
  if (a.routed_scaling_factor != 1.0f) {
    for (int r = 0; r < a.top_k; ++r) w[r] *= a.routed_scaling_factor;
  }
}

void MoeRouterTopKCpu(const ExecContext& ctx, const Tensor& weights, const Tensor& indices,
                      const Tensor& logits, const MoeRouterTopKArgs& args, const Tensor* bias) {
  const int64_t e = logits.shape[1];
  const int k = args.top_k;
  const float* b = bias != nullptr ? bias->Ptr<const float>() : nullptr;
  float* w = weights.Ptr<float>();
  int32_t* ids = indices.Ptr<int32_t>();
  ParallelForRows(ctx, logits.shape[0], [&](int64_t r0, int64_t r1) {
    std::vector<float> x(static_cast<size_t>(e)), p(static_cast<size_t>(e));
    std::vector<char> taken(static_cast<size_t>(e));
    GroupedScratch s;
    if (args.num_expert_group > 0) {
      s.score.resize(static_cast<size_t>(e));
      s.sel.resize(static_cast<size_t>(e));
      s.gscore.resize(static_cast<size_t>(args.num_expert_group));
      s.keep.resize(static_cast<size_t>(args.num_expert_group));
    }
    for (int64_t row = r0; row < r1; ++row) {
      moe::LoadRowF32(logits, row * e, e, x.data());
      if (args.num_expert_group > 0) {
        GroupedRow(x.data(), b, e, args, s, w + row * k, ids + row * k);
      } else {
        UngroupedRow(x.data(), e, k, args.renormalize, p.data(), taken.data(), w + row * k,
                     ids + row * k);
      }
    }
  });
}

}  // namespace

void Register_moe_router_topk() {
  RegisterTyped<kernel::MoeRouterTopKFn>("moe_router_topk", Backend::kCPU, &MoeRouterTopKCpu);
}

}  // namespace vt::cpu
