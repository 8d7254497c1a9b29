// attention CUDA kernel (dense GQA, causal or not, one packed sequence): a
// block per (head, query) row in the CPU kernel's order (dense.cuh,
// attend_row.cuh); the same bytes as the CPU on cuda-emu.
#include "cuda/attn/dense.cuh"

namespace vt::VT_CUDA_NS {
namespace {

void AttentionCuda(const ExecContext&, const Tensor& out, const Tensor& query, const Tensor& key, const Tensor& value,
                   const AttentionArgs& args) {
  attn::DenseAttentionRows("attention", out, query, key, value, args);
}

}  // namespace

void Register_attention() { RegisterTyped<kernel::AttentionFn>("attention", VT_CUDA_BACKEND, &AttentionCuda); }

}  // namespace vt::VT_CUDA_NS
