// scaled_fp4_quant oracle: NVFP4 quantization of x by definition (fp4.h).
#pragma once

#include "oracles/quant/fp4.h"

namespace vt::oracle {

template <class S>
Fp4Quant<S> ScaledFp4Quant(const std::vector<double>& x, int64_t rows, int64_t k, double gsi) {
  std::vector<S> in;
  in.reserve(x.size());
  for (double v : x) in.push_back(In<S>(v));
  return QuantizeFp4<S>(in, rows, k, gsi);
}

}  // namespace vt::oracle
