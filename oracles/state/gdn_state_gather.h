// gdn_state_gather oracle (the GDN layer's `ssm_state[idx]`, rows without an
// initial state zeroed; upstream mops/gdn_state_io.py): a move, generic over
// the element E (a value, or a bit pattern after the caller's widening to
// f32). Specifies; does not optimise.
#pragma once

#include <cstdint>
#include <vector>

namespace vt::oracle {

// cache: slots x mid rows of lc elements; result: idx.size() x mid rows of lw
// elements, row r = the leading lw columns of slot idx[r]'s rows, or `zero`
// where keep[r] == 0 (keep empty: every row kept).
template <class E>
std::vector<E> GdnStateGather(int64_t mid, int64_t lc, int64_t lw, const std::vector<E>& cache,
                              const std::vector<int64_t>& idx, const std::vector<int64_t>& keep, E zero) {
  std::vector<E> out;
  out.reserve(idx.size() * static_cast<std::size_t>(mid * lw));
  for (std::size_t r = 0; r < idx.size(); ++r) {
    const bool k = keep.empty() || keep[r] != 0;
    for (int64_t m = 0; m < mid; ++m) {
      for (int64_t e = 0; e < lw; ++e) out.push_back(k ? cache[static_cast<std::size_t>((idx[r] * mid + m) * lc + e)] : zero);
    }
  }
  return out;
}

}  // namespace vt::oracle
