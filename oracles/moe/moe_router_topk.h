// moe_router_topk oracle, from the definition (vLLM fused_topk / topk_softmax
// for the ungrouped router, grouped_topk noaux_tc for the grouped one). It
// specifies; it does not optimise: plain loops, top-k by SORTING (score
// descending, then expert index ascending - the documented tie rule), not by
// the kernel's greedy scan.
//   S = float    the definition in f32 in the spec's order (byte-exact claim);
//   S = Bounded  truth + error bound of any faithful f32 evaluation.
// Selection is a discrete decision: with S = Bounded the truth decides it
// wherever the bounds separate the competing scores. A row where two scores
// the decision compares differ in truth but their bounds overlap is
// AMBIGUOUS: f32 may order them either way, so the caller passes the f32
// evaluation's ids (RouterPicks::kAmbiguous) and that row takes them; exact
// truth ties (equal inputs, so equal f32 values) are never ambiguous: the
// lowest index wins. Tie-aware checks (RouterPicksWhyNot, RouterPicks::kValid)
// accept any order the bounds cannot tell apart - a kernel's or upstream's -
// and take the weights that choice implies. docs/ops/moe.md, "Ties".
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "oracles/act/activations.h"
#include "oracles/scalar.h"

namespace vt::oracle {

struct RouterSpec {
  int64_t top_k = 1;
  bool renormalize = true;
  bool sigmoid = false;       // grouped only
  int64_t n_group = 0;        // 0: ungrouped
  int64_t topk_group = 0;
  float routed_scaling_factor = 1.0f;
};

template <class S>
struct RouterOut {
  std::vector<S> weights;      // [T, k]
  std::vector<double> ids;     // [T, k]
  int64_t ambiguous_rows = 0;  // rows that took given picks other than their own
};

namespace router {

// Two truths a and b that an f32 evaluation may order the other way.
// exact_tie_is_sure: an exact tie of the truths is a tie in f32 as well
// (true for one expert's score: equal truths come from equal inputs; false
// for a group's score, a sum of two roundings: (s + 1) + (t - 1) and
// (t + 1) + (s - 1) tie exactly but round apart - vt-fuzz found a grouped
// grid row keeping the other group).
template <class S>
bool Overlap(const S& a, const S& b, bool exact_tie_is_sure = true) {
  const double va = ValueOf(a), vb = ValueOf(b);
  if (va == vb && (exact_tie_is_sure || (ErrorOf(a) == 0.0 && ErrorOf(b) == 0.0))) return false;
  const double gap = std::fabs(va - vb), slack = ErrorOf(a) + ErrorOf(b);
  return !(gap > slack);
}

// A value the f32 evaluation picks out of candidates whose own values lie in
// [lo, hi]: the truth v, and the largest distance to either end (0 when the
// ends are v itself, which includes exact infinities).
template <class S>
S Spread(double v, double lo, double hi) {
  if constexpr (std::is_same_v<S, Bounded>) {
    if (lo == v && hi == v) return {v, 0.0, false};
    double e = std::max(hi - v, v - lo);
    if (std::isnan(e)) e = INFINITY;
    return {v, e, false};
  } else {
    return static_cast<S>(v);
  }
}

// Logit j as the scores' input: exactly x[j], or (Bounded, radius given) any
// value within radius[j] of it - logits another evaluation computed apart
// from the kernel's (a golden's recorded router_logits).
template <class S>
S Logit(const double* x, const double* radius, int64_t j) {
  if constexpr (std::is_same_v<S, Bounded>) {
    if (radius != nullptr && radius[j] > 0.0) return Bounded{x[j], radius[j], false};
  }
  return In<S>(x[j]);
}

// softmax(x) as the spec defines it: a row holding NaN or +inf, or only
// -inf, has a NaN sum, and every probability is then 0.
template <class S>
std::vector<S> Softmax(const double* x, int64_t e, const double* radius = nullptr) {
  bool poisoned = true;
  for (int64_t j = 0; j < e; ++j) poisoned = poisoned && x[j] == -INFINITY;
  for (int64_t j = 0; j < e; ++j) poisoned = poisoned || std::isnan(x[j]) || x[j] == INFINITY;
  std::vector<S> p(static_cast<size_t>(e), In<S>(0.0));
  if (poisoned) return p;
  double m = -INFINITY;
  for (int64_t j = 0; j < e; ++j) m = std::max(m, x[j]);
  S sum = In<S>(0.0);
  for (int64_t j = 0; j < e; ++j) {
    p[static_cast<size_t>(j)] = Exp(Logit<S>(x, radius, j) - In<S>(m));
    sum += p[static_cast<size_t>(j)];
  }
  for (auto& v : p) v = v / sum;  // sum >= exp(0) = 1
  return p;
}

// Indices of `cand` sorted by value descending, then index ascending.
template <class S>
void SortDesc(std::vector<int64_t>& cand, const std::vector<S>& val) {
  std::stable_sort(cand.begin(), cand.end(), [&](int64_t a, int64_t b) {
    const double va = ValueOf(val[static_cast<size_t>(a)]), vb = ValueOf(val[static_cast<size_t>(b)]);
    if (va != vb) return va > vb;
    return a < b;
  });
}

// Group score: the max of the group's selection scores, or with a bias the
// sum of its two largest (-inf stands in for a missing second).
template <class S>
S GroupScore(const std::vector<S>& sel, int64_t base, int64_t gs, bool top2) {
  std::vector<double> v, lo, hi;
  for (int64_t j = 0; j < gs; ++j) {
    const S& s = sel[static_cast<size_t>(base + j)];
    v.push_back(ValueOf(s));
    lo.push_back(ValueOf(s) - ErrorOf(s));
    hi.push_back(ValueOf(s) + ErrorOf(s));
  }
  auto top = [](std::vector<double> a, int n) {
    std::sort(a.begin(), a.end(), [](double x, double y) { return x > y; });
    while (static_cast<int>(a.size()) < n) a.push_back(-INFINITY);
    return a;
  };
  if (!top2) {
    if constexpr (std::is_same_v<S, Bounded>) {
      return Spread<S>(top(v, 1)[0], top(lo, 1)[0], top(hi, 1)[0]);
    } else {
      S m = sel[static_cast<size_t>(base)];
      for (int64_t j = 1; j < gs; ++j) m = sel[static_cast<size_t>(base + j)] > m ? sel[static_cast<size_t>(base + j)] : m;
      return m;
    }
  }
  if constexpr (std::is_same_v<S, Bounded>) {
    const auto tv = top(v, 2), tl = top(lo, 2), th = top(hi, 2);
    // The f32 pair lies between the two lowest-possible and two highest-possible
    // members; one f32 add on top.
    const double sum = tv[0] + tv[1];
    Bounded b = Spread<Bounded>(sum, tl[0] + tl[1], th[0] + th[1]);
    if (std::isfinite(sum)) b.e += RoundErr(std::fabs(sum) + b.e);
    return b;
  } else {
    float first = -INFINITY, second = -INFINITY;
    for (int64_t j = 0; j < gs; ++j) {
      const float s = sel[static_cast<size_t>(base + j)];
      if (s > first) {
        second = first;
        first = s;
      } else if (s > second) {
        second = s;
      }
    }
    return first + second;
  }
}

}  // namespace router

// One row's scores: the (unbiased) scores the weights come from, the
// selection scores (+ bias), and, grouped, each group's score.
template <class S>
struct RouterRow {
  std::vector<S> score, sel, gscore;
};

// x_radius (optional, Bounded only): each logit may be anywhere within its
// radius of x (router::Logit).
template <class S>
RouterRow<S> RouterRowScores(const double* x, int64_t e, const std::vector<double>* bias, const RouterSpec& a,
                             const double* x_radius = nullptr) {
  RouterRow<S> r;
  const bool grouped = a.n_group > 0;
  if (grouped && a.sigmoid) {
    for (int64_t j = 0; j < e; ++j) r.score.push_back(Sigmoid(router::Logit<S>(x, x_radius, j)));
  } else {
    r.score = router::Softmax<S>(x, e, x_radius);
  }
  // The bias steers selection only.
  r.sel = r.score;
  if (bias != nullptr) {
    for (int64_t j = 0; j < e; ++j) r.sel[static_cast<size_t>(j)] = r.score[static_cast<size_t>(j)] + In<S>((*bias)[static_cast<size_t>(j)]);
  }
  if (grouped) {
    const int64_t gs = e / a.n_group;
    for (int64_t g = 0; g < a.n_group; ++g) r.gscore.push_back(router::GroupScore(r.sel, g * gs, gs, bias != nullptr));
  }
  return r;
}

namespace router {

// a is above b in every faithful f32 evaluation: their bounds do not meet.
// An exact tie (equal truths) is never certain, whichever index the spec's
// tie rule then prefers.
inline bool CertainlyAbove(const Bounded& a, const Bounded& b) { return a.v - b.v > a.e + b.e; }

// Whether `pick` is right for the kept groups `kept` (every candidate there
// that the pick at place r leaves out cannot be certainly above it); "" or why not.
inline std::string PicksWhyNotIn(const RouterRow<Bounded>& row, const std::vector<char>& kept, int64_t gs,
                                 const std::vector<int64_t>& pick) {
  const int64_t e = static_cast<int64_t>(row.sel.size());
  std::vector<char> taken(static_cast<size_t>(e), 0);
  for (size_t r = 0; r < pick.size(); ++r) {
    const int64_t p = pick[r];
    taken[static_cast<size_t>(p)] = 1;
    for (int64_t c = 0; c < e; ++c) {
      if (taken[static_cast<size_t>(c)] || !kept[static_cast<size_t>(c / gs)]) continue;
      if (!(row.sel[static_cast<size_t>(c)].v > -INFINITY)) continue;
      if (CertainlyAbove(row.sel[static_cast<size_t>(c)], row.sel[static_cast<size_t>(p)])) {
        return "expert " + std::to_string(c) + " is certainly above expert " + std::to_string(p) + " (place " +
               std::to_string(r) + ")";
      }
    }
  }
  return "";
}

}  // namespace router

// Tie-aware: whether `pick` (k expert ids of one row, in order) is an output
// some faithful f32 evaluation of the spec could give - "" if so, else why
// not. Among candidates the bounds cannot order (exact ties included) any
// order is accepted; a pick that another candidate certainly beats, an id
// twice, or an expert of a group that cannot be kept, is not. The spec's own
// tie rule (lowest index first) is the f32 definition's business, not this.
inline std::string RouterPicksWhyNot(const RouterRow<Bounded>& row, const RouterSpec& a,
                                     const std::vector<int64_t>& pick) {
  const int64_t e = static_cast<int64_t>(row.sel.size());
  std::vector<char> seen(static_cast<size_t>(e), 0);
  for (int64_t p : pick) {
    if (p < 0 || p >= e) return "id " + std::to_string(p) + " is not an expert";
    if (seen[static_cast<size_t>(p)]++) return "expert " + std::to_string(p) + " picked twice";
    if (!(row.sel[static_cast<size_t>(p)].v > -INFINITY)) return "expert " + std::to_string(p) + " has score -inf";
  }
  if (a.n_group <= 0) return router::PicksWhyNotIn(row, std::vector<char>{1}, e, pick);
  // Grouped: some kept set K (topk_group groups, the picks' among them, no
  // group outside certainly above one inside) for which the picks are right.
  const int64_t ng = a.n_group, gs = e / ng;
  std::vector<char> need(static_cast<size_t>(ng), 0);
  int64_t needed = 0;
  for (int64_t p : pick) needed += need[static_cast<size_t>(p / gs)]++ == 0;
  if (needed > a.topk_group) return "the picks span " + std::to_string(needed) + " groups, more than topk_group";
  std::vector<int64_t> others;
  for (int64_t g = 0; g < ng; ++g) {
    if (!need[static_cast<size_t>(g)]) others.push_back(g);
  }
  const int64_t extra = a.topk_group - needed;
  std::string why = "no set of kept groups makes these picks right";
  // Every choice of the extra groups, in lexicographic order (at most
  // C(ng, topk_group): 70 for DeepSeek-V3's 8 groups keeping 4).
  std::vector<int64_t> idx(static_cast<size_t>(extra));
  std::iota(idx.begin(), idx.end(), 0);
  for (int64_t tries = 0; tries < 100000; ++tries) {
    std::vector<char> kept = need;
    for (int64_t i : idx) kept[static_cast<size_t>(others[static_cast<size_t>(i)])] = 1;
    bool groups_ok = true;
    for (int64_t g = 0; g < ng && groups_ok; ++g) {
      for (int64_t h = 0; h < ng && groups_ok; ++h) {
        if (kept[static_cast<size_t>(g)] && !kept[static_cast<size_t>(h)] &&
            router::CertainlyAbove(row.gscore[static_cast<size_t>(h)], row.gscore[static_cast<size_t>(g)])) {
          groups_ok = false;
        }
      }
    }
    if (groups_ok) {
      const std::string w = router::PicksWhyNotIn(row, kept, gs, pick);
      if (w.empty()) return "";
      why = w;
    }
    // Next combination of `extra` out of others.size().
    int64_t i = extra - 1;
    const int64_t m = static_cast<int64_t>(others.size());
    while (i >= 0 && idx[static_cast<size_t>(i)] == m - extra + i) --i;
    if (i < 0) break;
    ++idx[static_cast<size_t>(i)];
    for (int64_t j = i + 1; j < extra; ++j) idx[static_cast<size_t>(j)] = idx[static_cast<size_t>(j - 1)] + 1;
  }
  return why;
}

// Picks a caller hands in (per row, [t, k]) and when a row takes them:
//   kAmbiguous  only where the bounds cannot order two scores the decision
//               compares (the f32 definition's ids: oracle mode default);
//   kValid      wherever they are a right output (RouterPicksWhyNot == ""):
//               a kernel's or upstream's choice among tied candidates;
//   kAlways     every row (the weights a given choice implies).
struct RouterPicks {
  enum class When { kAmbiguous, kValid, kAlways };
  const std::vector<double>* ids = nullptr;
  When when = When::kAmbiguous;
};

// logits [t, e] (values as read), bias [e] or null.
template <class S>
RouterOut<S> MoeRouterTopK(int64_t t, int64_t e, const std::vector<double>& logits,
                           const std::vector<double>* bias, const RouterSpec& a, RouterPicks given = {}) {
  const int64_t k = a.top_k;
  RouterOut<S> out;
  out.weights.resize(static_cast<size_t>(t * k));
  out.ids.resize(static_cast<size_t>(t * k));
  const bool grouped = a.n_group > 0;
  const int64_t ng = grouped ? a.n_group : 1, gs = e / ng;
  for (int64_t row = 0; row < t; ++row) {
    const double* x = logits.data() + row * e;
    // (1) scores, (2) selection scores, group scores.
    const RouterRow<S> rs = RouterRowScores<S>(x, e, bias, a);
    const std::vector<S>& score = rs.score;
    const std::vector<S>& sel = rs.sel;
    bool ambiguous = false;
    // (3) groups kept: the topk_group best group scores.
    std::vector<int64_t> cand;
    if (grouped) {
      std::vector<int64_t> order(static_cast<size_t>(ng));
      std::iota(order.begin(), order.end(), 0);
      router::SortDesc(order, rs.gscore);
      for (int64_t i = 0; i < a.topk_group; ++i) {
        for (int64_t h = a.topk_group; h < ng; ++h) {
          ambiguous = ambiguous || router::Overlap(rs.gscore[static_cast<size_t>(order[static_cast<size_t>(i)])],
                                                   rs.gscore[static_cast<size_t>(order[static_cast<size_t>(h)])],
                                                   /*exact_tie_is_sure=*/false);
        }
        const int64_t g = order[static_cast<size_t>(i)];
        for (int64_t j = 0; j < gs; ++j) cand.push_back(g * gs + j);
      }
    } else {
      for (int64_t j = 0; j < e; ++j) cand.push_back(j);
    }
    // (4) top-k of the kept selection scores (only scores above -inf count).
    cand.erase(std::remove_if(cand.begin(), cand.end(),
                              [&](int64_t j) { return !(ValueOf(sel[static_cast<size_t>(j)]) > -INFINITY); }),
               cand.end());
    if (static_cast<int64_t>(cand.size()) < k) {
      throw std::logic_error("moe_router_topk oracle: fewer than top_k selectable experts (refused input)");
    }
    router::SortDesc(cand, sel);
    for (int64_t r = 0; r < k; ++r) {
      for (size_t c = static_cast<size_t>(r) + 1; c < cand.size(); ++c) {
        ambiguous = ambiguous || router::Overlap(sel[static_cast<size_t>(cand[static_cast<size_t>(r)])],
                                                 sel[static_cast<size_t>(cand[c])]);
      }
    }
    std::vector<int64_t> pick(cand.begin(), cand.begin() + k);
    if (given.ids != nullptr) {
      std::vector<int64_t> theirs;
      for (int64_t r = 0; r < k; ++r) theirs.push_back(static_cast<int64_t>((*given.ids)[static_cast<size_t>(row * k + r)]));
      bool take = given.when == RouterPicks::When::kAlways ||
                  (given.when == RouterPicks::When::kAmbiguous && ambiguous);
      if constexpr (std::is_same_v<S, Bounded>) {
        if (given.when == RouterPicks::When::kValid) take = RouterPicksWhyNot(rs, a, theirs).empty();
      }
      if (take) {
        if (theirs != pick) ++out.ambiguous_rows;
        pick = theirs;
      }
    }
    // (5) weights = unbiased scores; renormalize, then the routed scaling.
    S sum = In<S>(0.0);
    std::vector<S> w;
    for (int64_t r = 0; r < k; ++r) {
      w.push_back(score[static_cast<size_t>(pick[static_cast<size_t>(r)])]);
      sum += w.back();
    }
    if (a.renormalize) {
      // The spec's guard: a sum that is not > 0 divides by 1. When the truth
      // is > 0 but an f32 sum could be 0 (every picked score underflows),
      // the branch is not decided by the truth: no bound (the f32 definition
      // claim pins those bytes).
      const bool branch_unsure = ValueOf(sum) > 0.0 && !(ValueOf(sum) - ErrorOf(sum) > 0.0);
      if (!(ValueOf(sum) > 0.0)) sum = In<S>(1.0);
      for (auto& v : w) {
        v = v / sum;
        if constexpr (std::is_same_v<S, Bounded>) {
          if (branch_unsure) v.e = INFINITY;
        }
      }
    }
    if (a.routed_scaling_factor != 1.0f) {
      for (auto& v : w) v = v * In<S>(static_cast<double>(a.routed_scaling_factor));
    }
    for (int64_t r = 0; r < k; ++r) {
      out.weights[static_cast<size_t>(row * k + r)] = w[static_cast<size_t>(r)];
      out.ids[static_cast<size_t>(row * k + r)] = static_cast<double>(pick[static_cast<size_t>(r)]);
    }
  }
  return out;
}

}  // namespace vt::oracle
