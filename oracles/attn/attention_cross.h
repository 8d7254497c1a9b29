// attention_cross oracle: non-causal attention of tq queries over s keys
// (torch SDPA with a float attn_mask): s_j = scale * (q . k_j) + bias[i or 0][j].
#pragma once

#include "oracles/attn/softmax_attention.h"

namespace vt::oracle {

// q [tq, hq, d], k/v [s, hk, d]; bias [bias_rows, s] (bias_rows 1: broadcast; 0: none).
template <class S>
std::vector<S> AttentionCross(const AttnShape& sh, int64_t s, const std::vector<double>& q,
                              const std::vector<double>& k, const std::vector<double>& v, double scale,
                              const std::vector<double>& bias, int64_t bias_rows) {
  const std::function<double(int64_t, int64_t)> b = [&](int64_t i, int64_t j) {
    return bias[static_cast<size_t>((bias_rows == 1 ? 0 : i) * s + j)];
  };
  return AttendAll<S>(
      sh, q, scale, [&](int64_t) { return s; }, [](int64_t, int64_t) { return true; },
      [&](int64_t, int64_t j, int64_t g, bool val) { return &(val ? v : k)[static_cast<size_t>((j * sh.hk + g) * sh.d)]; },
      bias_rows > 0 ? &b : nullptr);
}

}  // namespace vt::oracle
