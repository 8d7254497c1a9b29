// moe_silu_mul oracle: out = silu(gate) * up, elementwise over the flat order.
#pragma once

#include <vector>

#include "oracles/act/activations.h"
#include "oracles/act/elementwise.h"

namespace vt::oracle {

template <class S>
std::vector<S> MoeSiluMul(const std::vector<double>& gate, const std::vector<double>& up) {
  return Zip<S>(gate, up, [](S g, S u) { return Silu(g) * u; });
}

}  // namespace vt::oracle
