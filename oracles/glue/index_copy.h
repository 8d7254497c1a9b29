// index_copy oracle (Tensor.index_copy_(0, idx, in)): whole rows over dim 0,
// applied in index order, so of repeated indices the last one's row remains
// (the seed's sequential definition; torch leaves it unspecified). A move,
// generic over the element E (a value or a bit pattern). Specifies; does not
// optimise.
#pragma once

#include <cstdint>
#include <vector>

namespace vt::oracle {

// out (N rows) updated in place with in's i-th row at row idx[i], in order.
template <class E>
std::vector<E> IndexCopy(int64_t row, std::vector<E> out, const std::vector<E>& in, const std::vector<int64_t>& idx) {
  for (std::size_t i = 0; i < idx.size(); ++i) {
    for (int64_t j = 0; j < row; ++j) {
      out[static_cast<std::size_t>(idx[i] * row + j)] = in[i * static_cast<std::size_t>(row) + static_cast<std::size_t>(j)];
    }
  }
  return out;
}

}  // namespace vt::oracle
