// moe_silu_mul oracle: out = silu(gate) * up, elementwise over the flat order.
#pragma once

#include <vector>

#include "oracles/act/activations.h"

namespace vt::oracle {

template <class S>
std::vector<S> MoeSiluMul(const std::vector<double>& gate, const std::vector<double>& up) {
  std::vector<S> out;
  out.reserve(gate.size());
  for (size_t i = 0; i < gate.size(); ++i) out.push_back(Silu(In<S>(gate[i])) * In<S>(up[i]));
  return out;
}

}  // namespace vt::oracle
