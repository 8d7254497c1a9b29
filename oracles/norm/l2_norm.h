// l2_norm oracle (FLA l2norm_fwd): y = x / sqrt(sum(x^2) + eps) per row of the
// last dim - a plain sum, not a mean, and eps inside the root (unlike
// F.normalize's max(||x||, eps)).
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

template <class S>
std::vector<S> L2Norm(int64_t rows, int64_t d, const std::vector<double>& x, double eps) {
  std::vector<S> out(static_cast<size_t>(rows * d));
  for (int64_t r = 0; r < rows; ++r) {
    S sumsq = In<S>(0.0);
    for (int64_t j = 0; j < d; ++j) {
      const S v = In<S>(x[static_cast<size_t>(r * d + j)]);
      sumsq = sumsq + v * v;
    }
    const S inv = In<S>(1.0) / Sqrt(sumsq + In<S>(eps));
    for (int64_t j = 0; j < d; ++j) {
      out[static_cast<size_t>(r * d + j)] = In<S>(x[static_cast<size_t>(r * d + j)]) * inv;
    }
  }
  return out;
}

}  // namespace vt::oracle
