// attention_dense_flash CUDA kernel: the flash-style tiled kernel
// (flash_tile.cuh) with FlashAttention-1's update - the output kept
// normalized, rescaled by l_old * exp(m_old - m) / l at every key tile.
// Another order than the CPU's (cuda_bytes.cpp: kReordered); its tolerance
// and why it holds: harness/catalog/attn/attention.cpp.
#include "cuda/attn/flash_tile.cuh"

namespace vt::VT_CUDA_NS {
namespace {

void AttentionDenseFlashCuda(const ExecContext&, const Tensor& out, const Tensor& query, const Tensor& key,
                             const Tensor& value, const AttentionArgs& args) {
  attn::LaunchFlash<false>("attention_dense_flash", out, query, key, value, args);
}

}  // namespace

void Register_attention_dense_flash() {
  RegisterTyped<kernel::AttentionFn>("attention_dense_flash", VT_CUDA_BACKEND, &AttentionDenseFlashCuda);
}

}  // namespace vt::VT_CUDA_NS
