#include "harness/modes/known_ops.h"

#include <set>

#include "harness/modes/golden_check.h"

namespace vt::conform {
namespace {

// Runner keys of the upstream captures (upstream-oracles.md 2.1, 2.2). The
// model-level families qwen36_* are matched by prefix below.
const std::set<std::string> kUpstream = {
    "rmsnorm", "matmul", "silu_and_mul", "embedding", "rope", "long_context_rope", "causal_conv1d_fwd",
    "causal_conv1d_update", "l2norm", "rmsnorm_gated", "gdn_prefill", "gdn_decode", "moe_router_topk",
    "moe_block", "dense_attention", "qwen3_5_mtp_head", "gdn_packed_decode_bf16", "gdn_ba_projection_bf16",
};

// The seed's CPU ops (op-contracts.md 3.11), in the project's snake_case.
const std::set<std::string> kSeed = {
    "matmul", "matmul_bt", "batched_matmul", "concat_mla_nope_rope", "rms_norm", "rms_norm_quant_fp8",
    "quant_fp8_static", "quant_fp8_group", "matmul_fp8_cutlass", "silu_and_mul", "gelu_and_mul", "mul_scalar",
    "soft_cap", "moe_silu_mul", "moe_relu2", "scaled_fp4_quant", "silu_mul_fp4_quant", "sigmoid_gate_fp4_quant",
    "silu_and_mul_fp4_quant", "matmul_nvfp4_fp4", "embedding", "rope_neox", "rope_from_cache", "fused_norm_rope",
    "causal_conv1d_fwd", "causal_conv1d_update", "causal_conv1d_spec_update", "l2_norm", "rms_norm_gated",
    "rms_norm_gated_quant_fp8", "gdn_prefill", "gdn_decode", "gdn_spec_decode", "gdn_packed_decode",
    "kda_gated_delta_rule", "kda_chunk_prefill", "mamba2_chunk_scan", "mamba2_state_update",
    "rms_norm_gated_group", "gdn_state_gather", "gdn_state_scatter", "index_select", "index_copy",
    "moe_router_top_k", "moe_router_topk", "moe_combine", "attention", "attention_cross", "attention_dense_fast",
    "attention_dense_flash", "attention_dense_fa2", "dflash_block_attention", "dflash_paged_block_attention",
    "cast_bf16", "cast_f32", "mul_col_vec_f32", "attn_gate_split", "sigmoid_gate_bf16", "gdn_g_beta",
    "gdn_conv_split", "qkv_split", "gdn_post_conv", "rope_cos_sin_cache", "attn_qk_norm_rope_gate",
    "shared_expert_gate", "fused_chain",
    // the other CPU files of the seed's runtime
    "reshape_and_cache", "concat_and_cache_mla", "layer_norm", "relu", "add", "mla_decode_attention",
    "mla_prefill_attention", "gather_mla_cache", "merge_attn_states", "paged_attention", "matmul_bt_quant",
};

}  // namespace

bool IsKnownGoldenOp(const std::string& op) {
  if (kUpstream.count(op) != 0 || kSeed.count(op) != 0) return true;
  if (op.rfind("qwen36_", 0) == 0) return true;
  return FindGoldenAdapter(op).first != nullptr;
}

}  // namespace vt::conform
