// attn_gate_split oracle (Qwen3-Next gated attention: the q projection viewed
// [T, Hq, 2*Dh] and chunked in two along the last dim, q first, then gate).
// A move, so it is generic over the element E: a value (double) or a bit
// pattern. Specifies; does not optimise.
#pragma once

#include <cstdint>
#include <vector>

namespace vt::oracle {

template <class E>
struct GateSplit {
  std::vector<E> q, gate;  // [T, Hq, Dh] each
};

template <class E>
GateSplit<E> AttnGateSplit(int64_t tokens, int64_t heads, int64_t dh, const std::vector<E>& qgate) {
  GateSplit<E> out;
  for (int64_t t = 0; t < tokens; ++t) {
    for (int64_t h = 0; h < heads; ++h) {
      for (int64_t d = 0; d < dh; ++d) {
        const int64_t head_start = t * heads * 2 * dh + h * 2 * dh;
        out.q.push_back(qgate[static_cast<std::size_t>(head_start + d)]);
        out.gate.push_back(qgate[static_cast<std::size_t>(head_start + dh + d)]);
      }
    }
  }
  return out;
}

}  // namespace vt::oracle
