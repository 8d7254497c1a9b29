// embedding oracle (vLLM VocabParallelEmbedding on one rank = F.embedding:
// out[t] = table[ids[t]]): index_select of the table's rows over dim 0. A
// move, generic over the element E (a value or a bit pattern). The ids are
// given in range (the API refuses any other). Specifies; does not optimise.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/glue/index_select.h"

namespace vt::oracle {

template <class E>
std::vector<E> Embedding(int64_t hidden, const std::vector<E>& table, const std::vector<int64_t>& ids) {
  return IndexSelect<E>(hidden, table, ids);
}

}  // namespace vt::oracle
