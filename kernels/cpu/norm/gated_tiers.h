// The vector tier of rms_norm_gated (norm before gate, no groups):
//   out = ((x * inv) * w) * act(gate),  inv = 1 / sqrt(sum(x^2) / D + eps),
// and of rms_norm_gated_quant_fp8 (out_dt u8): that value rounded to bf16,
// times 1 / input_scale, encoded e4m3 in vector integer steps (the codec's
// byte for every f32: Fp8CodesSpan, checked against the codec by the tier test).
// Portable declarations only; the tier lives in gated_rows_avx512.cpp.
//
// Bytes: the row sums are the row-norm panel's (norm_tiers.h: each row's
// sequential chain, kLanes rows side by side, called with no output); the
// scale pass applies the portable tier's products in its order, and act is
// computed with the silu tier's vector expf (silu_tiers.h: glibc's expf
// transcribed, self-checked once per process; a failed check, or a vector
// with a gate off the expf's main path, takes the scalar expf for those 16
// values). avx512 only, for silu_and_mul's reason: the vector expf needs
// 64-bit table permutes and FMA.
#pragma once

#include <cstdint>

#include "vt/context.h"
#include "vt/dtype.h"
#include "vt/tensor.h"

namespace vt::cpu {

struct GatedRowsJob {
  const void* x = nullptr;  // contiguous [rows, d], f32/f16/bf16
  DType x_dt = DType::kF32;
  const void* gate = nullptr;  // row i at element (i / g_heads) * g_tok_stride + (i % g_heads) * d
  DType g_dt = DType::kF32;
  int64_t g_heads = 1;       // heads per token of a rank-3 gate (1: rank 2)
  int64_t g_tok_stride = 0;  // elements between tokens (rank 2: between rows)
  const float* w = nullptr;  // [d], widened to f32 once per call (exact for f16/bf16)
  void* out = nullptr;       // contiguous [rows, d], f32/bf16, or u8 e4m3 codes
  DType out_dt = DType::kF32;
  float inv_scale = 1.0f;   // u8 out: the code of bf16(value) * inv_scale
  int64_t d = 0;
  float eps = 0.0f;
  bool sigmoid = false;     // act = sigmoid instead of silu
  bool stream_out = false;  // non-temporal stores of out (large outputs only)
  const uint64_t* exp_tab = nullptr;  // VectorExpfTable(); null: scalar expf throughout
};

namespace avx512 {
// Rows [r0, r0 + nr), 1 <= nr <= avx512::kLanes: their sums, then out.
void GatedPanel(const GatedRowsJob& job, int64_t r0, int nr);
// codes[k] = the tier's e4m3 code of q[k], k < n (for the tier test).
void Fp8CodesSpan(const float* q, uint8_t* codes, int64_t n);
// codes[k] = e4m3(widen(bf16[k]) * inv_scale), k < n (rms_norm_quant_fp8's
// avx512 tier: the portable F32ToFp8E4M3(BF16ToF32(b) * inv_scale)).
void Fp8CodesFromBf16(const uint16_t* bf16, float inv_scale, uint8_t* codes, int64_t n);
}  // namespace avx512

// rms_norm_gated_group (gate before norm, Mamba2): v = x * silu(gate); no
// weight: out = round_through(x dtype, v); with one, per group of `group`
// columns: out = w * round_through(x dtype, v * inv_group).
struct GatedGroupJob {
  const void* x = nullptr;  // contiguous [rows, hidden], f32/f16/bf16
  DType x_dt = DType::kF32;
  const void* gate = nullptr;  // contiguous, x's shape, f32/f16/bf16
  DType g_dt = DType::kF32;
  const float* w = nullptr;  // [hidden] widened to f32 (exact), or null
  void* out = nullptr;       // contiguous, f32/bf16
  DType out_dt = DType::kF32;
  int64_t hidden = 0, group = 0;
  float eps = 0.0f;
  const uint64_t* exp_tab = nullptr;  // VectorExpfTable(); null: scalar expf throughout
};

namespace avx512 {
// Rows [r0, r1); v: hidden floats of scratch.
void GatedGroupRows(const GatedGroupJob& job, int64_t r0, int64_t r1, float* v);
// out[k] = the tier's f16 round trip of in[k] (for the tier test).
void RoundThroughF16Span(const float* in, float* out, int64_t n);
}  // namespace avx512

// Runs the op (validated operands: x / out contiguous, gate rows packed, w
// [D]) on the avx512 tier, which the CPU must support: panels of 16 rows
// split over the pool, each counted as a run of avx512. out f32/bf16
// (rms_norm_gated), or u8 (rms_norm_gated_quant_fp8: codes of
// bf16(value) * inv_scale).
void RunGatedTier(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& gate, const Tensor& w,
                  float eps, bool sigmoid, float inv_scale);

}  // namespace vt::cpu
