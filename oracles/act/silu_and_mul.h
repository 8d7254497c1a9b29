// silu_and_mul oracle (vLLM SiluAndMul.forward_native): out = silu(x[:, :D]) * x[:, D:].
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/act/activations.h"
#include "oracles/act/elementwise.h"

namespace vt::oracle {

template <class S>
std::vector<S> SiluAndMul(int64_t rows, int64_t d, const std::vector<double>& x) {
  return GatedHalves<S>(rows, d, x, [](S gate, S up) { return Silu(gate) * up; });
}

}  // namespace vt::oracle
