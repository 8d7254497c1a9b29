// The online-softmax evaluation of dense attention (FlashAttention): one
// sweep over the visible keys in tiles of `tile` keys (the first tile starts
// at key 0) with a running max and sum, instead of the spec's three passes.
// Not a second definition - at S = double it computes the same value as
// AttendKeys up to rounding - but, at S = float, the same-precision
// reference of the CUDA flash kernels (kernels/cuda/attn/flash_tile.cuh):
// the same steps in the same order with the same rounding points, so that
// the tolerance of attention_dense_flash / _fa2 is derived from the error of
// the algorithm those kernels run (harness/catalog/attn/attention.cpp).
// Per tile, with m_old / l_old the running values, s_c the tile's scores
// (sequential dot from 0, then * scale) and every sum sequential from 0:
//   kFa2: m = max(m_old, max s_c); a = exp(m_old - m); p_c = exp(s_c - m);
//         l = a * l_old + sum p_c; acc = a * acc + sum p_c v_c; out = acc / l.
//   kFa1: mt = max s_c; p_c = exp(s_c - mt); lt = sum p_c; m = max(m_old, mt);
//         a = exp(m_old - m); b = exp(mt - m); l = a * l_old + b * lt;
//         o = ((l_old * a) * o + b * sum p_c v_c) / l; out = o.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "oracles/attn/softmax_attention.h"

namespace vt::oracle {

enum class OnlineUpdate {
  kFa1,  // FlashAttention-1: the output kept normalized, rescaled every tile
  kFa2,  // FlashAttention-2: an unnormalized accumulator, divided once at the end
};

// One query row over the visible keys (pointers to d values each, in key order).
template <class S>
void AttendKeysOnline(const double* q, int64_t d, double scale, const std::vector<const double*>& keys,
                      const std::vector<const double*>& values, int64_t tile, OnlineUpdate rule, S* out) {
  const int64_t n = static_cast<int64_t>(keys.size());
  S m = In<S>(-INFINITY), l = In<S>(0.0);
  std::vector<S> o(static_cast<size_t>(d), In<S>(0.0)), s(static_cast<size_t>(tile));
  for (int64_t j0 = 0; j0 < n; j0 += tile) {
    const int64_t cnt = n - j0 < tile ? n - j0 : tile;
    S mt = In<S>(-INFINITY);
    for (int64_t c = 0; c < cnt; ++c) {
      S dot = In<S>(0.0);
      for (int64_t e = 0; e < d; ++e) dot = dot + In<S>(q[e]) * In<S>(keys[static_cast<size_t>(j0 + c)][e]);
      s[static_cast<size_t>(c)] = dot * In<S>(scale);
      if (s[static_cast<size_t>(c)] > mt) mt = s[static_cast<size_t>(c)];
    }
    const S m_new = mt > m ? mt : m;
    const S a = Exp(m - m_new);
    const S ref = rule == OnlineUpdate::kFa2 ? m_new : mt;  // what the weights are relative to
    S sum = In<S>(0.0);
    for (int64_t c = 0; c < cnt; ++c) {
      s[static_cast<size_t>(c)] = Exp(s[static_cast<size_t>(c)] - ref);
      sum = sum + s[static_cast<size_t>(c)];
    }
    const S b = Exp(mt - m_new);
    const S carry = l * a;
    const S l_new = rule == OnlineUpdate::kFa2 ? a * l + sum : a * l + b * sum;
    for (int64_t e = 0; e < d; ++e) {
      S pv = In<S>(0.0);
      for (int64_t c = 0; c < cnt; ++c) pv = pv + s[static_cast<size_t>(c)] * In<S>(values[static_cast<size_t>(j0 + c)][e]);
      S& oe = o[static_cast<size_t>(e)];
      oe = rule == OnlineUpdate::kFa2 ? a * oe + pv : (carry * oe + b * pv) / l_new;
    }
    l = l_new;
    m = m_new;
  }
  for (int64_t e = 0; e < d; ++e) {
    out[e] = rule == OnlineUpdate::kFa2 ? o[static_cast<size_t>(e)] / l : o[static_cast<size_t>(e)];
  }
}

// Dense attention (oracles/attn/attention.h's operands) in the online order.
template <class S>
std::vector<S> AttentionOnline(const AttnShape& sh, const std::vector<double>& q, const std::vector<double>& k,
                               const std::vector<double>& v, double scale, bool causal, int64_t tile,
                               OnlineUpdate rule) {
  std::vector<S> out(static_cast<size_t>(sh.tq * sh.hq * sh.d));
  const int64_t group = sh.hq / sh.hk;
  for (int64_t i = 0; i < sh.tq; ++i) {
    for (int64_t h = 0; h < sh.hq; ++h) {
      std::vector<const double*> keys, values;
      for (int64_t j = 0; j < (causal ? i + 1 : sh.tq); ++j) {
        const size_t at = static_cast<size_t>((j * sh.hk + h / group) * sh.d);
        keys.push_back(&k[at]);
        values.push_back(&v[at]);
      }
      const size_t at = static_cast<size_t>((i * sh.hq + h) * sh.d);
      AttendKeysOnline<S>(&q[at], sh.d, scale, keys, values, tile, rule, &out[at]);
    }
  }
  return out;
}

}  // namespace vt::oracle
