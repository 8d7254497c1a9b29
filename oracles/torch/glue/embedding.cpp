// embedding after VocabParallelEmbedding (vocab_parallel_embedding.py) with one
// partition: F.embedding(ids, table) = the table's rows in id order.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_embedding(const Input& in) {
  const at::Tensor ids = View(in.Get("ids")).to(at::kLong);
  return {{"out", Out(at::embedding(Load(in, "table"), ids))}};
}

}  // namespace vt::torchref
