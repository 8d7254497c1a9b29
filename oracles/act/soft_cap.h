// soft_cap oracle (vLLM LogitsProcessor soft-cap: x / cap, tanh, * cap):
// out = cap * tanh(x / cap).
#pragma once

#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

template <class S>
std::vector<S> SoftCap(const std::vector<double>& x, double cap) {
  std::vector<S> out;
  out.reserve(x.size());
  for (double xi : x) out.push_back(In<S>(cap) * Tanh(In<S>(xi) / In<S>(cap)));
  return out;
}

}  // namespace vt::oracle
