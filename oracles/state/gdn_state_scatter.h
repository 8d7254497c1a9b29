// gdn_state_scatter oracle (the GDN layer's `ssm_state[idx] = final.to(
// ssm_state.dtype)`): a move into the cache, generic over the element E (a
// value, or a bit pattern already rounded to the cache dtype by the caller).
// Only the leading lw columns of the named slots change. Specifies; does not
// optimise.
#pragma once

#include <cstdint>
#include <vector>

namespace vt::oracle {

// cache: slots x mid rows of lc; working: idx.size() x mid rows of lw.
template <class E>
std::vector<E> GdnStateScatter(int64_t mid, int64_t lc, int64_t lw, std::vector<E> cache, const std::vector<E>& working,
                               const std::vector<int64_t>& idx) {
  for (std::size_t r = 0; r < idx.size(); ++r) {
    for (int64_t m = 0; m < mid; ++m) {
      for (int64_t e = 0; e < lw; ++e) {
        cache[static_cast<std::size_t>((idx[r] * mid + m) * lc + e)] = working[(r * static_cast<std::size_t>(mid) + static_cast<std::size_t>(m)) * static_cast<std::size_t>(lw) + static_cast<std::size_t>(e)];
      }
    }
  }
  return cache;
}

}  // namespace vt::oracle
