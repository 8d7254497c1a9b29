// Registers the CUDA kernel of each op that has one, for this build's
// backend: kCUDA under nvcc, kCudaEmu on the host.
#include "cuda/core/common.cuh"

namespace vt::VT_CUDA_NS {

#define VT_CUDA_OPS(X)                                                                                   \
  X(rms_norm) X(rms_norm_quant_fp8) X(l2_norm) X(rms_norm_gated) X(rms_norm_gated_quant_fp8)             \
  X(rms_norm_gated_group) X(fused_chain) X(silu_and_mul) X(gelu_and_mul) X(mul_scalar) X(soft_cap)       \
  X(moe_silu_mul) X(moe_relu2) X(sigmoid_gate_bf16) X(shared_expert_gate) X(mul_col_vec_f32)             \
  X(attn_gate_split) X(qkv_split) X(embedding) X(cast_bf16) X(cast_f32) X(concat_mla_nope_rope)          \
  X(index_select) X(index_copy) X(moe_router_topk) X(moe_combine) X(matmul) X(matmul_bt)                 \
  X(batched_matmul) X(matmul_nvfp4_fp4) X(scaled_fp4_quant) X(silu_mul_fp4_quant)                        \
  X(silu_and_mul_fp4_quant) X(sigmoid_gate_fp4_quant) X(rope_neox) X(rope_from_cache)                    \
  X(rope_cos_sin_cache) X(fused_norm_rope) X(attn_qk_norm_rope_gate) X(causal_conv1d_fwd)                \
  X(causal_conv1d_update) X(causal_conv1d_spec_update) X(gdn_state_gather) X(gdn_state_scatter)          \
  X(gdn_g_beta) X(gdn_conv_split) X(gdn_post_conv) X(attention) X(attention_dense_fast)                  \
  X(attention_dense_flash) X(attention_dense_fa2) X(attention_cross) X(dflash_block_attention)           \
  X(dflash_paged_block_attention) X(gdn_prefill) X(gdn_decode) X(gdn_spec_decode) X(gdn_packed_decode)   \
  X(kda_gated_delta_rule) X(kda_chunk_prefill) X(mamba2_chunk_scan) X(mamba2_state_update)

#define VT_DECLARE(name) void Register_##name();
VT_CUDA_OPS(VT_DECLARE)
#undef VT_DECLARE

void RegisterAll() {
#define VT_CALL(name) Register_##name();
  VT_CUDA_OPS(VT_CALL)
#undef VT_CALL
}

}  // namespace vt::VT_CUDA_NS
