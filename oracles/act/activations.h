// Scalar activation definitions shared by the oracles (upstream formulations):
//   sigmoid(z) = 1 / (1 + exp(-z));  silu(z) = z / (1 + exp(-z))  (= z * sigmoid(z))
//   gelu_tanh(g) = 0.5 * g * (1 + tanh(sqrt(2/pi) * (g + 0.044715 * g^3)))
#pragma once

#include <cmath>

#include "oracles/scalar.h"

namespace vt::oracle {

template <class S>
S Sigmoid(S z) {
  return In<S>(1.0) / (In<S>(1.0) + Exp(-z));
}

template <class S>
S Silu(S z) {
  return z / (In<S>(1.0) + Exp(-z));
}

template <class S>
S GeluTanh(S g) {
  const S inner = Lit<S>(std::sqrt(2.0 / M_PI)) * (g + Lit<S>(0.044715) * g * g * g);
  return In<S>(0.5) * g * (In<S>(1.0) + Tanh(inner));
}

}  // namespace vt::oracle
