// silu_and_mul oracle (vLLM SiluAndMul.forward_native): out = silu(x[:, :D]) * x[:, D:].
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/act/activations.h"

namespace vt::oracle {

template <class S>
std::vector<S> SiluAndMul(int64_t rows, int64_t d, const std::vector<double>& x) {
  std::vector<S> out(static_cast<size_t>(rows * d));
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < d; ++j) {
      const S gate = In<S>(x[static_cast<size_t>(i * 2 * d + j)]);
      const S up = In<S>(x[static_cast<size_t>(i * 2 * d + d + j)]);
      out[static_cast<size_t>(i * d + j)] = Silu(gate) * up;
    }
  }
  return out;
}

}  // namespace vt::oracle
