// moe_relu2 oracle (vLLM relu_squared / MoEActivation.RELU2_NO_MUL): out = relu(x)^2.
#pragma once

#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

template <class S>
std::vector<S> MoeRelu2(const std::vector<double>& x) {
  std::vector<S> out;
  out.reserve(x.size());
  for (double xi : x) {
    const S r = In<S>(xi > 0.0 ? xi : 0.0);
    out.push_back(r * r);
  }
  return out;
}

}  // namespace vt::oracle
