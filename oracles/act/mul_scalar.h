// mul_scalar oracle (Gemma embedding normaliser `hidden * normalizer`): out = x * s,
// with s the scalar as the op receives it (an f32 value).
#pragma once

#include <vector>

#include "oracles/act/elementwise.h"

namespace vt::oracle {

template <class S>
std::vector<S> MulScalar(const std::vector<double>& x, double s) {
  return Map<S>(x, [s](S xi) { return xi * In<S>(s); });
}

}  // namespace vt::oracle
