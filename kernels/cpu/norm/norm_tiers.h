// The vector tiers of the row norms (rms_norm, l2_norm, and the sum pass of
// rms_norm_quant_fp8 / rms_norm_gated). Portable declarations only: the tier
// code lives in norm_panel_avx512.cpp / norm_panel_avx2.cpp (norm_panel.inc).
//
// Bytes: the portable tier sums each row's squares in one sequential f32
// chain. The tiers keep that chain per row but run kLanes rows' chains side
// by side, one row per vector lane (a kLanes x kLanes transpose of each block
// of columns), then apply the per-element scale with the portable tier's
// operations in its order. A row's bytes depend only on that row, so the
// panel a row falls in (and the thread count) cannot change them.
#pragma once

#include <cstdint>
#include <functional>

#include "vt/context.h"
#include "vt/dtype.h"

namespace vt::cpu {

struct NormRowsJob {
  const void* x = nullptr;  // contiguous [rows, h], f32/f16/bf16
  DType x_dt = DType::kF32;
  void* residual = nullptr;  // optional, contiguous [rows, h], f32/bf16: residual = round(x + residual) first
  DType res_dt = DType::kF32;
  void* out = nullptr;  // optional, contiguous [rows, h], f32/bf16; null: sum pass only
  DType out_dt = DType::kF32;
  const void* w = nullptr;  // [h] f32/f16/bf16, contiguous; null: no weight (l2_norm)
  DType w_dt = DType::kF32;
  bool gemma = false;  // weight applied as (w + 1), that f32 add per element (RmsWeight)
  int64_t h = 0;
  float eps = 0.0f;
  bool mean = true;         // inv = 1/sqrt(sum/h + eps) (rms) or 1/sqrt(sum + eps) (l2)
  bool stream_out = false;  // non-temporal stores of out (large outputs only)
  bool prefetch = false;    // prefetch the next panel while scaling one (more than one panel)
  // Row strides in elements; 0 = h (packed). x_ld covers x and the residual
  // (fused_norm_rope's latent half of a wider row, a head of q|gate rows).
  int64_t x_ld = 0;
  int64_t out_ld = 0;
  int64_t XRow(int64_t r) const { return r * (x_ld != 0 ? x_ld : h); }
  int64_t OutRow(int64_t r) const { return r * (out_ld != 0 ? out_ld : h); }
};

// Rows [r0, r0 + nr) (row r at XRow(r) / OutRow(r)), 1 <= nr <= lanes of the tier: the residual update,
// inv[k] for row r0 + k, and (when job.out is set) out = (v * inv) * w.
namespace avx512 {
inline constexpr int kLanes = 16;
void NormPanel(const NormRowsJob& job, int64_t r0, int nr, float* inv);
}  // namespace avx512
namespace avx2 {
inline constexpr int kLanes = 8;
void NormPanel(const NormRowsJob& job, int64_t r0, int nr, float* inv);
}  // namespace avx2

}  // namespace vt::cpu

namespace vt::cpu {

// Runs job over rows [0, rows) on vector tier `tier` (kAvx2 or kAvx512, one
// the CPU supports): panels of kLanes rows in output-row order split over
// the pool, each panel counted once as a run of `tier`. after_panel (when
// set) runs on rows [r0, r0 + nr) right after their panel, in the same thread
// (fused_norm_rope rotates those tokens' rope halves while they are warm).
void RunNormTier(const ExecContext& ctx, Isa tier, const NormRowsJob& job, int64_t rows,
                 const std::function<void(int64_t r0, int nr)>& after_panel = {});

// One panel on `tier`, in the caller's thread (attn_qk_norm_rope_gate runs its
// own split, by tokens): NormPanel of that tier; NormLanes is its kLanes.
int NormLanes(Isa tier);
void NormPanelOn(Isa tier, const NormRowsJob& job, int64_t r0, int nr, float* inv);

}  // namespace vt::cpu
