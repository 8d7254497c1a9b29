// The vector tiers of the elementwise products mul_scalar (out = x * s) and
// mul_col_vec_f32 (x *= col, in place). Portable declarations only: the tier
// code lives in scale_span_avx512.cpp / scale_span_avx2.cpp (scale_span.inc).
// One f32 multiply per element, x first, as the portable tier; widening on
// load and rounding on store with the scalar codecs' results.
#pragma once

#include <cstdint>

#include "vt/dtype.h"
#include "vt/isa.h"

namespace vt::cpu {

struct ScaleJob {
  DType x_dt = DType::kF32;    // f32/f16/bf16
  DType out_dt = DType::kF32;  // f32/bf16
  const float* col = nullptr;  // per-element factors (col[k] for element k of a span); null: s
  float s = 1.0f;
  bool stream_out = false;  // non-temporal stores (large outputs only)
};

// out[k] = x[k] * (col ? col[k] : s) for k in [0, n); x and out may be the
// same storage (in place) but must not overlap otherwise.
namespace avx512 {
void ScaleSpan(const ScaleJob& job, const void* x, void* out, int64_t n);
}
namespace avx2 {
void ScaleSpan(const ScaleJob& job, const void* x, void* out, int64_t n);
}

// ScaleSpan of `tier` (kAvx2 or kAvx512, one the CPU supports).
void ScaleSpanOn(Isa tier, const ScaleJob& job, const void* x, void* out, int64_t n);

// Elements per block the flat elementwise tiers split over the pool.
inline constexpr int64_t kScaleBlock = 4096;

}  // namespace vt::cpu
