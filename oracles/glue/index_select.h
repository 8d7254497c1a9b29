// index_select oracle (torch.index_select(in, 0, idx)): whole rows over dim
// 0, in logical row-major order. A move, generic over the element E (a value
// or a bit pattern: the harness moves raw bytes). Specifies; does not optimise.
#pragma once

#include <cstdint>
#include <vector>

namespace vt::oracle {

// in: N rows of `row` elements; out: one row per index.
template <class E>
std::vector<E> IndexSelect(int64_t row, const std::vector<E>& in, const std::vector<int64_t>& idx) {
  std::vector<E> out;
  for (int64_t r : idx) {
    for (int64_t j = 0; j < row; ++j) out.push_back(in[static_cast<std::size_t>(r * row + j)]);
  }
  return out;
}

}  // namespace vt::oracle
