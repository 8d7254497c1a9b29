// The CUDA kernels whose bytes may differ from their CPU twin's, with the
// reason (cuda_bytes.h; docs/cuda.md "Bytes vs the CPU").
#include "harness/modes/cuda_bytes.h"

#include <map>

namespace vt::conform {
namespace {

const std::map<std::string, CudaBytes>& Table() {
  using K = CudaBytes::Kind;
  static const auto* table = new std::map<std::string, CudaBytes>{
      // A row's sum of squares is a block reduction in double, rounded to f32
      // once (cuda/core/reduce.cuh): another rounding than the CPU's
      // sequential f32 sum, inside the same bound (docs/cuda.md "Reductions").
      {"rms_norm", {K::kReordered, "block reduction of the sum of squares"}},
      {"rms_norm_quant_fp8", {K::kReordered, "block reduction of the sum of squares"}},
      {"l2_norm", {K::kReordered, "block reduction of the sum of squares"}},
      {"rms_norm_gated", {K::kReordered, "block reduction of the sum of squares"}},
      {"rms_norm_gated_quant_fp8", {K::kReordered, "block reduction of the sum of squares"}},
      {"rms_norm_gated_group", {K::kReordered, "block reduction of the sum of squares"}},
      {"fused_chain", {K::kReordered, "block reduction of the rms_norm step's sum of squares"}},
      // exp / tanh in the definition: the host libm on cuda-emu (the CPU's
      // bytes), the double function rounded once on a device.
      {"silu_and_mul", {K::kSameAsCpuOnEmu, "exp"}},
      {"gelu_and_mul", {K::kSameAsCpuOnEmu, "tanh / erf"}},
      {"soft_cap", {K::kSameAsCpuOnEmu, "tanh"}},
      {"moe_silu_mul", {K::kSameAsCpuOnEmu, "exp"}},
      {"sigmoid_gate_bf16", {K::kSameAsCpuOnEmu, "exp"}},
      {"shared_expert_gate", {K::kSameAsCpuOnEmu, "exp"}},
      {"moe_router_topk", {K::kSameAsCpuOnEmu, "exp (softmax, sigmoid)"}},
      // The fused fp4 quantisers compute silu / sigmoid (exp) before the bf16
      // step and the e2m1 codes.
      {"silu_mul_fp4_quant", {K::kSameAsCpuOnEmu, "exp (silu)"}},
      {"silu_and_mul_fp4_quant", {K::kSameAsCpuOnEmu, "exp (silu)"}},
      {"sigmoid_gate_fp4_quant", {K::kSameAsCpuOnEmu, "exp (sigmoid)"}},
      // RoPE: the angle is double pow / cos / sin rounded once to f32, as on
      // the CPU (cuda/rope/rope.cuh); rope_from_cache has no transcendental
      // and keeps the CPU's bytes everywhere (not listed).
      {"rope_neox", {K::kSameAsCpuOnEmu, "double pow / cos / sin of the angle"}},
      {"rope_cos_sin_cache", {K::kSameAsCpuOnEmu, "double pow / cos / sin of the angle"}},
      // The norms of the fused RoPE ops: fused_norm_rope's latent rms norm is
      // rms_norm's block reduction; attn_qk_norm_rope_gate's per-head norms a
      // warp reduction in double (cuda/rope/attn_qk_norm_rope_gate.cu). Their
      // rope parts read cos/sin from a given table: no transcendental.
      {"fused_norm_rope", {K::kReordered, "block reduction of the latent row's sum of squares"}},
      {"attn_qk_norm_rope_gate", {K::kReordered, "warp reduction of each head's sum of squares"}},
      // The conv window in the CPU's tap order; silu's exp is the only
      // device-dependent step (conv_state is exact everywhere).
      {"causal_conv1d_fwd", {K::kSameAsCpuOnEmu, "exp (silu)"}},
      {"causal_conv1d_update", {K::kSameAsCpuOnEmu, "exp (silu)"}},
      {"causal_conv1d_spec_update", {K::kSameAsCpuOnEmu, "exp (silu)"}},
      // The GDN gate: exp, and log1pf (CUDA's, <= 1 ulp, on a device).
      {"gdn_g_beta", {K::kSameAsCpuOnEmu, "exp, log1p (gate)"}},
      {"gdn_post_conv", {K::kSameAsCpuOnEmu, "exp, log1p (gate); the l2 norm keeps the CPU's sequential sum"}},
      // The attention rows keep the CPU's three passes in key order
      // (cuda/attn/attend_row.cuh); exp is the only difference on a device.
      {"attention", {K::kSameAsCpuOnEmu, "exp (softmax)"}},
      {"attention_dense_fast", {K::kSameAsCpuOnEmu, "exp (softmax)"}},
      {"attention_cross", {K::kSameAsCpuOnEmu, "exp (softmax)"}},
      {"dflash_block_attention", {K::kSameAsCpuOnEmu, "exp (softmax)"}},
      {"dflash_paged_block_attention", {K::kSameAsCpuOnEmu, "exp (softmax)"}},
      // The flash kernels (cuda/attn/flash_tile.cuh): an online softmax over
      // 16-key tiles - a running max with rescale, the normalization per tile
      // (FA1) or once at the end (FA2) - instead of the CPU's three passes;
      // held to the flash entries' rule (harness/catalog/attn/attention.cpp).
      {"attention_dense_flash", {K::kReordered, "online softmax over key tiles (FlashAttention-1 update)"}},
      {"attention_dense_fa2", {K::kReordered, "online softmax over key tiles (FlashAttention-2 update)"}},
      // The delta-rule recurrences keep the CPU's order (a thread per value
      // row, each dot sequential in Dk; cuda/gdn/delta_rule.cuh): only the
      // gate's exp (and log1p) may round differently on a device, where
      // both are the double functions rounded once (cuda/core/access.cuh).
      {"gdn_prefill", {K::kSameAsCpuOnEmu, "exp (the decay)"}},
      {"gdn_decode", {K::kSameAsCpuOnEmu, "exp (the decay)"}},
      {"gdn_spec_decode", {K::kSameAsCpuOnEmu, "exp (the decay)"}},
      {"gdn_packed_decode", {K::kSameAsCpuOnEmu, "exp, log1p (the gate), sigmoid"}},
      {"kda_gated_delta_rule", {K::kSameAsCpuOnEmu, "exp (the per-channel decay)"}},
      {"kda_chunk_prefill", {K::kSameAsCpuOnEmu, "exp, log1p (the fused gate)"}},
      // Mamba2: the CPU's stages, sums and handover rounding kept element by
      // element (cuda/mamba/*.cu); exp in the decays and silu, exp and
      // log1p in dt's softplus.
      {"mamba2_chunk_scan", {K::kSameAsCpuOnEmu, "exp (decays, silu), exp / log1p (softplus)"}},
      {"mamba2_state_update", {K::kSameAsCpuOnEmu, "exp (decay, silu), exp / log1p (softplus)"}},
  };
  return *table;
}

}  // namespace

CudaBytes CudaBytesOf(const std::string& op) {
  const auto& t = Table();
  const auto it = t.find(op);
  return it == t.end() ? CudaBytes{} : it->second;
}

}  // namespace vt::conform
