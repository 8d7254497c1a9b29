// mul_scalar oracle (Gemma embedding normaliser `hidden * normalizer`): out = x * s,
// with s the scalar as the op receives it (an f32 value).
#pragma once

#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

template <class S>
std::vector<S> MulScalar(const std::vector<double>& x, double s) {
  std::vector<S> out;
  out.reserve(x.size());
  for (double xi : x) out.push_back(In<S>(xi) * In<S>(s));
  return out;
}

}  // namespace vt::oracle
