// rms_norm oracle (vLLM RMSNorm / GemmaRMSNorm, fused_add_rms_norm):
//   residual' = residual + x, stored at the residual's format (the value the
//               normalisation then reads);
//   out = v / sqrt(mean(v^2) + eps) * w      (gemma: * (1 + w)).
// Specifies; does not optimise. Row-major [T,H] vectors of exact input values.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

template <class S>
S RmsInv(const std::vector<S>& row, double eps) {
  S sumsq = In<S>(0.0);
  for (const S& v : row) sumsq = sumsq + v * v;
  return In<S>(1.0) / Sqrt(sumsq / In<S>(static_cast<double>(row.size())) + In<S>(eps));
}

// residual (optional, in place) holds the residual on entry; on return the
// updated stream. The f32 add is a defined rounding point before the store.
template <class S>
std::vector<S> RmsNorm(int64_t rows, int64_t h, const std::vector<double>& x,
                       const std::vector<double>& w, bool gemma, double eps,
                       std::vector<S>* residual, Fmt residual_fmt) {
  std::vector<S> out(static_cast<size_t>(rows * h));
  std::vector<S> v(static_cast<size_t>(h));
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < h; ++j) {
      const size_t at = static_cast<size_t>(i * h + j);
      S value = In<S>(x[at]);
      if (residual != nullptr) {
        (*residual)[at] = Store(residual_fmt, Store(Fmt::kF32, value + (*residual)[at]));
        value = (*residual)[at];
      }
      v[static_cast<size_t>(j)] = value;
    }
    const S inv = RmsInv(v, eps);
    for (int64_t j = 0; j < h; ++j) {
      const S wj = gemma ? In<S>(w[static_cast<size_t>(j)]) + In<S>(1.0) : In<S>(w[static_cast<size_t>(j)]);
      out[static_cast<size_t>(i * h + j)] = v[static_cast<size_t>(j)] * inv * wj;
    }
  }
  return out;
}

}  // namespace vt::oracle
