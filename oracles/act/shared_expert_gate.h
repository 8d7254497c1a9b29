// shared_expert_gate oracle (Qwen MoE shared expert): out[t,c] = sigmoid(gl[t]) * sd[t,c].
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/act/activations.h"

namespace vt::oracle {

template <class S>
std::vector<S> SharedExpertGate(int64_t rows, int64_t h, const std::vector<double>& sd,
                                const std::vector<double>& gl) {
  std::vector<S> out(static_cast<size_t>(rows * h));
  for (int64_t t = 0; t < rows; ++t) {
    const S g = Sigmoid(In<S>(gl[static_cast<size_t>(t)]));
    for (int64_t c = 0; c < h; ++c) {
      out[static_cast<size_t>(t * h + c)] = g * In<S>(sd[static_cast<size_t>(t * h + c)]);
    }
  }
  return out;
}

}  // namespace vt::oracle
