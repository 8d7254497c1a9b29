// silu_mul_fp4_quant oracle: the unfused definition - silu(gate) * up stored
// to bf16 (the rounding point of the fused CUDA producer), then NVFP4 quant.
#pragma once

#include "oracles/act/activations.h"
#include "oracles/quant/fp4.h"

namespace vt::oracle {

template <class S>
Fp4Quant<S> SiluMulFp4Quant(const std::vector<double>& gate, const std::vector<double>& up, int64_t rows,
                            int64_t i, double gsi) {
  std::vector<S> act;
  act.reserve(gate.size());
  for (size_t n = 0; n < gate.size(); ++n) act.push_back(Store(Fmt::kBF16, Silu(In<S>(gate[n])) * In<S>(up[n])));
  return QuantizeFp4<S>(act, rows, i, gsi);
}

}  // namespace vt::oracle
