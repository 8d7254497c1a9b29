// The tier table: which vector tiers each op's CPU kernel has (vt/isa.h).
// One line per tiered op; an op not listed has only its portable tier. A line
// is added in the same commit as the tier itself: the harness's isa mode runs
// every listed tier against the portable tier's bytes, so a listed tier that
// does not exist would pass vacuously (the tier-run counts below catch that:
// the isa mode requires the requested tier to have counted itself).
#include <array>
#include <atomic>
#include <utility>

#include "vt/isa.h"

namespace vt {
namespace {

struct OpTierLine {
  std::string_view op;
  std::vector<Isa> tiers;  // lowest first
  // The libm transcription its vector tiers use: vt::LibmFallback reports
  // its fallback from this column, so an op missing here would fall back
  // unreported (the harness's isa mode would pass a broken transcription).
  VectorLibm libm = VectorLibm::kNone;
};

const std::vector<OpTierLine>& Table() {
  static const std::vector<OpTierLine> kTable = {
      // {"op_name", {Isa::kAvx2, Isa::kAvx512}},
      {"matmul", {Isa::kAvx2, Isa::kAvx512}},          // kernels/cpu/gemm/gemm_simd.h
      {"matmul_bt", {Isa::kAvx2, Isa::kAvx512}},
      {"batched_matmul", {Isa::kAvx2, Isa::kAvx512}},

      // --- row / elementwise ops (branch rowsimd): cpu/norm/norm_tiers.h ---
      {"rms_norm", {Isa::kAvx2, Isa::kAvx512}},
      {"l2_norm", {Isa::kAvx2, Isa::kAvx512}},
      // (branch simd-g) the panel's bf16 output, then the integer e4m3 encode
      {"rms_norm_quant_fp8", {Isa::kAvx2, Isa::kAvx512}},
      // cpu/act/scale_tiers.h
      {"mul_scalar", {Isa::kAvx2, Isa::kAvx512}},
      {"mul_col_vec_f32", {Isa::kAvx2, Isa::kAvx512}},
      // cpu/act/silu_tiers.h (avx512 only: its vector expf needs 64-bit permutes and FMA)
      {"silu_and_mul", {Isa::kAvx512}, VectorLibm::kExpf},
      // cpu/norm/gated_tiers.h (avx512 only: its act uses silu_and_mul's vector expf)
      {"rms_norm_gated", {Isa::kAvx512}, VectorLibm::kExpf},
      {"rms_norm_gated_quant_fp8", {Isa::kAvx512}, VectorLibm::kExpf},
      {"rms_norm_gated_group", {Isa::kAvx512}, VectorLibm::kExpf},
      // --- end row / elementwise ops ---

      // --- RoPE (branch simd-c): cpu/rope/rope_tiers.h; rope_neox's cos/sin stay scalar libm ---
      {"rope_from_cache", {Isa::kAvx2, Isa::kAvx512}},
      {"rope_neox", {Isa::kAvx2, Isa::kAvx512}},
      // cpu/quant/fp4_tiers.h: the NVFP4 quantizer; the fused ops' activations run their own kernels
      {"scaled_fp4_quant", {Isa::kAvx2, Isa::kAvx512}},
      {"silu_mul_fp4_quant", {Isa::kAvx2, Isa::kAvx512}},
      {"sigmoid_gate_fp4_quant", {Isa::kAvx2, Isa::kAvx512}},
      // avx512 only: its activation is silu_and_mul's kernel, whose one vector
      // tier is avx512 - an avx2 call would run two tiers in one op
      {"silu_and_mul_fp4_quant", {Isa::kAvx512}, VectorLibm::kExpf},
      // --- end RoPE / fp4 quant ---

      // --- Mamba2 (branch simd-m): cpu/mamba/mamba_tiers.h; softplus / exp / silu stay scalar per head or p ---
      {"mamba2_state_update", {Isa::kAvx2, Isa::kAvx512}},
      // stages 2 (the chunk states) and 5 (the outputs); stages 1, 3, 4 stay portable code
      {"mamba2_chunk_scan", {Isa::kAvx2, Isa::kAvx512}},
      // --- end Mamba2 ---
      // --- GDN / KDA recurrences (branch simd-d): cpu/gdn/delta_tiers.h, the shared head step with value rows in lanes ---
      {"gdn_prefill", {Isa::kAvx2, Isa::kAvx512}},
      {"gdn_decode", {Isa::kAvx2, Isa::kAvx512}},
      {"gdn_spec_decode", {Isa::kAvx2, Isa::kAvx512}},
      {"gdn_packed_decode", {Isa::kAvx2, Isa::kAvx512}},  // its L2 norms, softplus and gates stay portable code
      // KDA (kda_recurrence.cpp): the same step with a per-key decay; kda_chunk_prefill's gate stays portable
      {"kda_gated_delta_rule", {Isa::kAvx2, Isa::kAvx512}},
      {"kda_chunk_prefill", {Isa::kAvx2, Isa::kAvx512}},
      // --- end GDN / KDA ---
      // --- gelu_and_mul (branch simd-e): cpu/act/gelu_tiers.h, a vector transcription of glibc's tanhf ---
      {"gelu_and_mul", {Isa::kAvx2, Isa::kAvx512}, VectorLibm::kTanhf},
      // --- end gelu_and_mul ---

      // --- attention (branch simd-a): cpu/attn/attend_tiers.h, AttendRow's tiers (avx2's expf stays scalar) ---
      {"attention", {Isa::kAvx2, Isa::kAvx512}, VectorLibm::kExpf},
      {"attention_cross", {Isa::kAvx2, Isa::kAvx512}, VectorLibm::kExpf},
      // the CUDA-variant names register attention's CPU function (its tiers)
      {"attention_dense_fa2", {Isa::kAvx2, Isa::kAvx512}, VectorLibm::kExpf},
      {"attention_dense_fast", {Isa::kAvx2, Isa::kAvx512}, VectorLibm::kExpf},
      {"attention_dense_flash", {Isa::kAvx2, Isa::kAvx512}, VectorLibm::kExpf},
      {"dflash_block_attention", {Isa::kAvx2, Isa::kAvx512}, VectorLibm::kExpf},
      {"dflash_paged_block_attention", {Isa::kAvx2, Isa::kAvx512}, VectorLibm::kExpf},
      // --- end attention ---
      // --- fused RoPE ops (branch simd-r): the norm panel + rope_rows + a convert span; libm / copies stay as they are ---
      {"fused_norm_rope", {Isa::kAvx2, Isa::kAvx512}},
      {"attn_qk_norm_rope_gate", {Isa::kAvx2, Isa::kAvx512}},
      // --- end fused RoPE ops ---
  };
  return kTable;
}

// The op's line of the table; null: the op has only its portable tier.
const OpTierLine* LineOf(std::string_view op) {
  for (const OpTierLine& line : Table()) {
    if (line.op == op) return &line;
  }
  return nullptr;
}

std::array<std::atomic<uint64_t>, 4>& Counts() {
  static std::array<std::atomic<uint64_t>, 4> counts{};
  return counts;
}

}  // namespace

std::vector<Isa> OpTiers(std::string_view op) {
  const OpTierLine* line = LineOf(op);
  return line != nullptr ? line->tiers : std::vector<Isa>{};
}

VectorLibm OpVectorLibm(std::string_view op) {
  const OpTierLine* line = LineOf(op);
  return line != nullptr ? line->libm : VectorLibm::kNone;
}

Isa PickTier(Isa resolved, const std::vector<Isa>& has) {
  Isa best = Isa::kPortable;
  for (Isa t : has) {
    if (static_cast<int>(t) <= static_cast<int>(resolved) && IsaSupported(t)) best = t;
  }
  return best;
}

void CountTierRun(Isa isa) { Counts()[static_cast<std::size_t>(isa)].fetch_add(1, std::memory_order_relaxed); }

uint64_t TierRunCount(Isa isa) { return Counts()[static_cast<std::size_t>(isa)].load(std::memory_order_relaxed); }

}  // namespace vt
