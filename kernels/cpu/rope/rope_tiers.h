// The vector tiers of the cache-reading RoPE ops (rope_from_cache, and
// rope_neox's rotation: its cos/sin stay the scalar libm calls of the
// portable tier, formed once per token in portable code and handed over as
// f32 arrays; fused_norm_rope's and attn_qk_norm_rope_gate's rotation after
// their norm, cpu/norm/norm_tiers.h). Portable declarations only: the tier
// code lives in rope_rows_avx512.cpp / rope_rows_avx2.cpp (rope_rows.inc).
// Per pair, as the portable tier: (x, y) -> (x*c - y*s, x*s + y*c), each
// product and sum one f32 IEEE operation in that order (no FMA), widened on
// load and rounded on store with the scalar codecs' results.
#pragma once

#include <cstdint>

#include "vt/dtype.h"
#include "vt/isa.h"

namespace vt::cpu {

struct RopeRowsJob {
  bool bf16 = false;        // the rows' storage: bf16, else f32
  bool neox = true;         // pairs (i, i + half); else GPT-J pairs (2i, 2i + 1)
  int64_t half = 0;         // pairs per row (rotary_dim / 2); elements >= 2*half untouched
  const void* c = nullptr;  // half cos values of the pairs, in order
  const void* s = nullptr;  // half sin values
  bool cs_bf16 = false;     // c / s storage: bf16, else f32
};

// Rotates `rows` rows in place; row r starts at base + r * stride bytes.
// ConvertSpan: n elements of src (f32/f16/bf16) stored to dst (f32/bf16),
// each the scalar codecs' widen-then-round (NaN quieted as the bf16 codec does).
namespace avx512 {
void RopeRows(const RopeRowsJob& job, void* base, int64_t rows, int64_t stride);
void ConvertSpan(const void* src, DType in, void* dst, DType out, int64_t n);
}  // namespace avx512
namespace avx2 {
void RopeRows(const RopeRowsJob& job, void* base, int64_t rows, int64_t stride);
void ConvertSpan(const void* src, DType in, void* dst, DType out, int64_t n);
}  // namespace avx2

// RopeRows / ConvertSpan of `tier` (kAvx2 or kAvx512, one the CPU supports).
void RopeRowsOn(Isa tier, const RopeRowsJob& job, void* base, int64_t rows, int64_t stride);
void ConvertSpanOn(Isa tier, const void* src, DType in, void* dst, DType out, int64_t n);

}  // namespace vt::cpu
