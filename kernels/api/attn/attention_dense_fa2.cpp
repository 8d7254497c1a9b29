// attention_dense_fa2: attention's validator and kernel under the CUDA
// variant's name (op-contracts 3.8: identical validators).
#include "api/attn/attn_checks.h"

namespace vt {

void AttentionDenseFa2(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
                      const Tensor& value, const AttentionArgs& args) {
  api::DenseAttention("attention_dense_fa2", ctx, out, query, key, value, args);
}

}  // namespace vt
