// soft_cap oracle (vLLM LogitsProcessor soft-cap: x / cap, tanh, * cap):
// out = cap * tanh(x / cap).
#pragma once

#include <vector>

#include "oracles/act/elementwise.h"

namespace vt::oracle {

template <class S>
std::vector<S> SoftCap(const std::vector<double>& x, double cap) {
  return Map<S>(x, [cap](S xi) { return In<S>(cap) * Tanh(xi / In<S>(cap)); });
}

}  // namespace vt::oracle
