// qkv_split oracle (vLLM's merged QKV projection split: qkv.split([q_size,
// kv_size, kv_size], dim=-1), here with three independent widths). A move,
// generic over the element E (a value or a bit pattern). Specifies; does not
// optimise.
#pragma once

#include <cstdint>
#include <vector>

namespace vt::oracle {

// parts[p] = columns [offset_p, offset_p + dims[p]) of every row, row-major.
template <class E>
std::vector<std::vector<E>> QkvSplit(int64_t tokens, const std::vector<int64_t>& dims,
                                     const std::vector<E>& qkv) {
  int64_t width = 0;
  for (int64_t d : dims) width += d;
  std::vector<std::vector<E>> parts(dims.size());
  for (int64_t t = 0; t < tokens; ++t) {
    int64_t offset = 0;
    for (std::size_t p = 0; p < dims.size(); ++p) {
      for (int64_t j = 0; j < dims[p]; ++j) parts[p].push_back(qkv[static_cast<std::size_t>(t * width + offset + j)]);
      offset += dims[p];
    }
  }
  return parts;
}

}  // namespace vt::oracle
