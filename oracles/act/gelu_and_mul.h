// gelu_and_mul oracle (vLLM GeluAndMul(approximate="tanh").forward_native):
// out = gelu_tanh(x[:, :D]) * x[:, D:].
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/act/activations.h"
#include "oracles/act/elementwise.h"

namespace vt::oracle {

template <class S>
std::vector<S> GeluAndMul(int64_t rows, int64_t d, const std::vector<double>& x) {
  return GatedHalves<S>(rows, d, x, [](S g, S up) { return GeluTanh(g) * up; });
}

}  // namespace vt::oracle
