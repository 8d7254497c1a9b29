// embedding oracle (vLLM VocabParallelEmbedding on one rank = F.embedding:
// out[t] = table[ids[t]]). A move, generic over the element E (a value or a
// bit pattern). The ids are given in range (the API refuses any other).
// Specifies; does not optimise.
#pragma once

#include <cstdint>
#include <vector>

namespace vt::oracle {

template <class E>
std::vector<E> Embedding(int64_t hidden, const std::vector<E>& table, const std::vector<int64_t>& ids) {
  std::vector<E> out;
  for (int64_t id : ids) {
    for (int64_t j = 0; j < hidden; ++j) out.push_back(table[static_cast<std::size_t>(id * hidden + j)]);
  }
  return out;
}

}  // namespace vt::oracle
