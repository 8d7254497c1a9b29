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
