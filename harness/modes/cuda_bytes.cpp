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
