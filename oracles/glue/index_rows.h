// index_select / index_copy oracles (torch.index_select(in, 0, idx) and
// Tensor.index_copy_(0, idx, in)): whole rows over dim 0, in logical
// row-major order. Moves, generic over the element E (a value or a bit
// pattern). index_copy applies the rows in index order, so of repeated
// indices the last one's row remains (the seed's sequential definition; torch
// leaves it unspecified). Specify; do not optimise.
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
