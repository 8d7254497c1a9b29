// Registers the CUDA kernel of each op that has one, for this build's
// backend: kCUDA under nvcc, kCudaEmu on the host.
#include "cuda/core/common.cuh"

namespace vt::VT_CUDA_NS {

#define VT_CUDA_OPS(X)                                                                                   \
  X(rms_norm) X(rms_norm_quant_fp8) X(l2_norm) X(rms_norm_gated) X(rms_norm_gated_quant_fp8)             \
  X(rms_norm_gated_group) X(fused_chain) X(silu_and_mul) X(gelu_and_mul) X(mul_scalar) X(soft_cap)       \
  X(moe_silu_mul) X(moe_relu2) X(sigmoid_gate_bf16) X(shared_expert_gate) X(mul_col_vec_f32)     \
  X(attn_gate_split) X(qkv_split) X(embedding) X(cast_bf16) X(cast_f32) X(concat_mla_nope_rope)           \
  X(index_select) X(index_copy) X(moe_router_topk) X(moe_combine) X(mamba2_chunk_scan) X(mamba2_state_update)

#define VT_DECLARE(name) void Register_##name();
VT_CUDA_OPS(VT_DECLARE)
#undef VT_DECLARE

void RegisterAll() {
#define VT_CALL(name) Register_##name();
  VT_CUDA_OPS(VT_CALL)
#undef VT_CALL
}

}  // namespace vt::VT_CUDA_NS
