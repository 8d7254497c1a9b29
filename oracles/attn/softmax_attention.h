// Attention oracles (vLLM's reference: tests/kernels/utils.py
// ref_masked_attention, torch SDPA): for each query row and q-head h,
//   s_j = scale * (q . k_j) [+ bias_j]   over the keys the mask admits,
//   out = sum_j softmax(s)_j v_j,        softmax(s)_j = exp(s_j - max s) / sum exp(s - max s),
// with GQA: q-head h reads kv-head h / (Hq / Hkv). Specifies; does not
// optimise: the mask is a predicate over every key, scores and weights are
// plain loops. At S = double it is the truth; at S = float it evaluates the
// definition in f32 in the order the spec fixes (sequential dot from 0, then
// * scale, + bias; max; exp and their sum in key order; each weight is
// e_j * (1 / sum); the weighted sum of V in key order) - the baseline rule's
// same-precision reference and the f32_definition claim's bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

// One query row over the admitted keys (pointers to d values each, in key
// order); bias: one term per admitted key, or empty. Writes d values to out.
template <class S>
void AttendKeys(const double* q, int64_t d, double scale, const std::vector<const double*>& keys,
                const std::vector<const double*>& values, const std::vector<double>& bias, S* out) {
  const size_t n = keys.size();
  std::vector<S> score(n);
  for (size_t j = 0; j < n; ++j) {
    S dot = In<S>(0.0);
    for (int64_t e = 0; e < d; ++e) dot = dot + In<S>(q[e]) * In<S>(keys[j][e]);
    score[j] = dot * In<S>(scale);
    if (!bias.empty()) score[j] = score[j] + In<S>(bias[j]);
  }
  S top = score.empty() ? In<S>(0.0) : score[0];
  for (size_t j = 1; j < n; ++j) {
    if (score[j] > top) top = score[j];
  }
  S sum = In<S>(0.0);
  std::vector<S> weight(n);
  for (size_t j = 0; j < n; ++j) {
    weight[j] = Exp(score[j] - top);
    sum = sum + weight[j];
  }
  const S inv = In<S>(1.0) / sum;
  for (int64_t e = 0; e < d; ++e) out[e] = In<S>(0.0);
  for (size_t j = 0; j < n; ++j) {
    const S p = weight[j] * inv;
    for (int64_t e = 0; e < d; ++e) out[e] = out[e] + p * In<S>(values[j][e]);
  }
}

// Multi-head driver: queries [tq, hq, d]; key/value rows are addressed by
// row_of(i, j) -> (key row pointer, value row pointer) for kv-head g, over
// candidate keys j = 0 .. nkeys(i) - 1 admitted by visible(i, j).
struct AttnShape {
  int64_t tq = 0, hq = 0, hk = 0, d = 0;
};

template <class S>
std::vector<S> AttendAll(const AttnShape& sh, const std::vector<double>& q, double scale,
                         const std::function<int64_t(int64_t)>& nkeys,
                         const std::function<bool(int64_t, int64_t)>& visible,
                         const std::function<const double*(int64_t, int64_t, int64_t, bool)>& row_of,
                         const std::function<double(int64_t, int64_t)>* bias = nullptr) {
  std::vector<S> out(static_cast<size_t>(sh.tq * sh.hq * sh.d));
  const int64_t group = sh.hq / sh.hk;
  for (int64_t i = 0; i < sh.tq; ++i) {
    for (int64_t h = 0; h < sh.hq; ++h) {
      const int64_t g = h / group;
      std::vector<const double*> keys, values;
      std::vector<double> b;
      for (int64_t j = 0; j < nkeys(i); ++j) {
        if (!visible(i, j)) continue;
        keys.push_back(row_of(i, j, g, false));
        values.push_back(row_of(i, j, g, true));
        if (bias != nullptr) b.push_back((*bias)(i, j));
      }
      const size_t at = static_cast<size_t>((i * sh.hq + h) * sh.d);
      AttendKeys<S>(&q[at], sh.d, scale, keys, values, b, &out[at]);
    }
  }
  return out;
}

// The DFlash mask: key c is visible to a query at index qi (both in the
// request's own key order) when bidirectional, or when c <= qi and, with a
// window w > 0, c > qi - w.
inline bool DFlashVisible(int64_t qi, int64_t c, bool causal, int64_t window) {
  if (!causal) return true;
  return c <= qi && (window <= 0 || c > qi - window);
}

}  // namespace vt::oracle
