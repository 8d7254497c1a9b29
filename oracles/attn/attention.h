// attention oracle: dense GQA softmax attention over one packed sequence of T
// tokens (torch SDPA is_causal / enable_gqa). causal: query i sees keys j <= i.
#pragma once

#include "oracles/attn/softmax_attention.h"

namespace vt::oracle {

// q [t, hq, d], k/v [t, hk, d] (logical row-major values).
template <class S>
std::vector<S> Attention(const AttnShape& sh, const std::vector<double>& q, const std::vector<double>& k,
                         const std::vector<double>& v, double scale, bool causal) {
  return AttendAll<S>(
      sh, q, scale, [&](int64_t) { return sh.tq; }, [&](int64_t i, int64_t j) { return !causal || j <= i; },
      [&](int64_t, int64_t j, int64_t g, bool val) { return &(val ? v : k)[static_cast<size_t>((j * sh.hk + g) * sh.d)]; });
}

}  // namespace vt::oracle
