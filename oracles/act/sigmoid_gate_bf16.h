// sigmoid_gate_bf16 oracle (Qwen3-Next attention output gate): out = attn * sigmoid(gate);
// the bf16 store is the output format's rounding.
#pragma once

#include <vector>

#include "oracles/act/activations.h"
#include "oracles/act/elementwise.h"

namespace vt::oracle {

template <class S>
std::vector<S> SigmoidGate(const std::vector<double>& attn, const std::vector<double>& gate) {
  return Zip<S>(attn, gate, [](S a, S g) { return a * Sigmoid(g); });
}

}  // namespace vt::oracle
