// Per-row pieces shared by the CPU norm kernels. Each keeps the sequential f32
// reduction over the row and the exact operation order of the definition:
//   inv = 1 / sqrt(sum(v*v) / H + eps);   out = ((v * inv) * w) [* act]
#pragma once

#include <cmath>
#include <cstdint>

#include "cpu/access.h"

namespace vt::cpu {

// rms_norm row prologue: with a residual, residual = round(x + residual) is
// stored first and the ROUNDED value is re-read (the value a later load of the
// residual stream sees). Returns inv.
inline float RmsRowInv(const Tensor& x, const Tensor* residual, int64_t base, int64_t h,
                       float eps) {
  float sumsq = 0.0f;
  for (int64_t j = 0; j < h; ++j) {
    float v = LoadF32(x, base + j);
    if (residual != nullptr) {
      StoreF32(*residual, base + j, v + LoadF32(*residual, base + j));
      v = LoadF32(*residual, base + j);
    }
    sumsq += v * v;
  }
  return 1.0f / std::sqrt(sumsq / static_cast<float>(h) + eps);
}

// The value rms_norm normalises at element `at`.
inline float RmsRowValue(const Tensor& x, const Tensor* residual, int64_t at) {
  return residual != nullptr ? LoadF32(*residual, at) : LoadF32(x, at);
}

inline float RmsWeight(const Tensor& w, int64_t j, bool gemma) {
  float wj = LoadF32(w, j);
  if (gemma) wj += 1.0f;
  return wj;
}

// Gated norms: x is a contiguous [rows, d] view; the gate row of flat row i is
// token i / Hv, head i % Hv for a rank-3 gate (token stride may be padded).
inline int64_t GateRowBase(const Tensor& gate, int64_t i) {
  if (gate.rank == 3) return (i / gate.shape[1]) * gate.stride[0] + (i % gate.shape[1]) * gate.stride[1];
  return i * gate.stride[0];
}

inline float PlainRowInv(const Tensor& x, int64_t base, int64_t d, float eps, bool mean) {
  float sumsq = 0.0f;
  for (int64_t j = 0; j < d; ++j) {
    const float v = LoadF32(x, base + j);
    sumsq += v * v;
  }
  return 1.0f / std::sqrt((mean ? sumsq / static_cast<float>(d) : sumsq) + eps);
}

// ((x * inv) * w) * act(gate)
inline float GatedValue(float xv, float inv, float wv, float z, bool sigmoid_gate) {
  const float act = sigmoid_gate ? SigmoidF32(z) : SiluF32(z);
  return xv * inv * wv * act;
}

}  // namespace vt::cpu
