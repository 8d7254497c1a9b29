// attention_dense_fa2 CUDA kernel: the flash-style tiled kernel
// (flash_tile.cuh) with FlashAttention-2's update - an unnormalized
// accumulator rescaled by exp(m_old - m) at every key tile and divided by
// the running sum once, at the end. Another order than the CPU's
// (cuda_bytes.cpp: kReordered); its tolerance and why it holds:
// harness/catalog/attn/attention.cpp.
#include "cuda/attn/flash_tile.cuh"

namespace vt::VT_CUDA_NS {
namespace {

void AttentionDenseFa2Cuda(const ExecContext&, const Tensor& out, const Tensor& query, const Tensor& key,
                           const Tensor& value, const AttentionArgs& args) {
  attn::LaunchFlash<true>("attention_dense_fa2", out, query, key, value, args);
}

}  // namespace

void Register_attention_dense_fa2() {
  RegisterTyped<kernel::AttentionFn>("attention_dense_fa2", VT_CUDA_BACKEND, &AttentionDenseFa2Cuda);
}

}  // namespace vt::VT_CUDA_NS
