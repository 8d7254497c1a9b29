// sigmoid_gate_fp4_quant oracle: attn * sigmoid(gate) stored to bf16 (Qwen3-
// Next's gated attention output), then NVFP4 quant of that bf16 value.
#pragma once

#include "oracles/act/sigmoid_gate_bf16.h"
#include "oracles/quant/fp4.h"

namespace vt::oracle {

template <class S>
Fp4Quant<S> SigmoidGateFp4Quant(const std::vector<double>& attn, const std::vector<double>& gate, int64_t rows,
                                int64_t k, double gsi) {
  std::vector<S> act = SigmoidGate<S>(attn, gate);
  for (S& v : act) v = Store(Fmt::kBF16, v);
  return QuantizeFp4<S>(act, rows, k, gsi);
}

}  // namespace vt::oracle
