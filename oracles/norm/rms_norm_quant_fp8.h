// rms_norm_quant_fp8 oracle: the unfused definition vLLM's fusion pass
// replaces - RMSNorm producing bf16, then static per-tensor fp8 quant of that
// bf16 value, q = e4m3(y * (1 / scale)) (reciprocal formed once, saturating).
#pragma once

#include "oracles/norm/rms_norm.h"

namespace vt::oracle {

template <class S>
struct NormQuant {
  std::vector<S> fp8;   // decoded e4m3 values
  std::vector<S> bf16;  // the bf16 normed value
};

template <class S>
NormQuant<S> QuantFp8FromBf16(const std::vector<S>& normed, double input_scale) {
  NormQuant<S> r;
  const S inv_scale = In<S>(1.0) / In<S>(input_scale);
  for (const S& y : normed) {
    const S b = Store(Fmt::kBF16, y);
    r.bf16.push_back(b);
    r.fp8.push_back(Store(Fmt::kFp8E4M3, b * inv_scale));
  }
  return r;
}

template <class S>
NormQuant<S> RmsNormQuantFp8(int64_t rows, int64_t h, const std::vector<double>& x,
                             const std::vector<double>& w, bool gemma, double eps,
                             std::vector<S>* residual, Fmt residual_fmt, double input_scale) {
  return QuantFp8FromBf16(RmsNorm<S>(rows, h, x, w, gemma, eps, residual, residual_fmt),
                          input_scale);
}

}  // namespace vt::oracle
