// sigmoid_gate_bf16 oracle (Qwen3-Next attention output gate): out = attn * sigmoid(gate);
// the bf16 store is the output format's rounding.
#pragma once

#include <vector>

#include "oracles/act/activations.h"

namespace vt::oracle {

template <class S>
std::vector<S> SigmoidGate(const std::vector<double>& attn, const std::vector<double>& gate) {
  std::vector<S> out;
  out.reserve(attn.size());
  for (size_t i = 0; i < attn.size(); ++i) out.push_back(In<S>(attn[i]) * Sigmoid(In<S>(gate[i])));
  return out;
}

}  // namespace vt::oracle
