// attention_dense_fast CUDA kernel: the straightforward dense kernel, as
// `attention` (a block per (head, query) row, the CPU's three passes in key
// order: dense.cuh), so the name keeps the CPU's bytes as on the CPU, where
// both names are one kernel.
#include "cuda/attn/dense.cuh"

namespace vt::VT_CUDA_NS {
namespace {

void AttentionDenseFastCuda(const ExecContext&, const Tensor& out, const Tensor& query, const Tensor& key,
                            const Tensor& value, const AttentionArgs& args) {
  attn::DenseAttentionRows("attention_dense_fast", out, query, key, value, args);
}

}  // namespace

void Register_attention_dense_fast() {
  RegisterTyped<kernel::AttentionFn>("attention_dense_fast", VT_CUDA_BACKEND, &AttentionDenseFastCuda);
}

}  // namespace vt::VT_CUDA_NS
