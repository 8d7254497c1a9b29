// silu_and_mul_fp4_quant oracle (vLLM silu_and_mul_nvfp4_quant): SiluAndMul
// on gate_up [M, 2I] (gate half first) stored to bf16, then NVFP4 quant.
#pragma once

#include "oracles/act/silu_and_mul.h"
#include "oracles/quant/fp4.h"

namespace vt::oracle {

template <class S>
Fp4Quant<S> SiluAndMulFp4Quant(const std::vector<double>& gate_up, int64_t rows, int64_t i, double gsi) {
  std::vector<S> act = SiluAndMul<S>(rows, i, gate_up);
  for (S& v : act) v = Store(Fmt::kBF16, v);
  return QuantizeFp4<S>(act, rows, i, gsi);
}

}  // namespace vt::oracle
