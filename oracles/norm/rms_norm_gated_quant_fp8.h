// rms_norm_gated_quant_fp8 oracle: the gated norm rounded to bf16, then static
// fp8 quant of that bf16 value (the unfused epilogue the fusion replaces).
#pragma once

#include "oracles/norm/rms_norm_gated.h"
#include "oracles/norm/rms_norm_quant_fp8.h"

namespace vt::oracle {

template <class S>
std::vector<S> RmsNormGatedQuantFp8(int64_t rows, int64_t d, const std::vector<double>& x,
                                    const std::vector<double>& gate, const std::vector<double>& w,
                                    double eps, bool sigmoid_gate, double input_scale) {
  return QuantFp8FromBf16(RmsNormGated<S>(rows, d, x, gate, w, eps, sigmoid_gate), input_scale).fp8;
}

}  // namespace vt::oracle
