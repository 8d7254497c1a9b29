// mul_col_vec_f32 oracle: x[m,n] * col[n] (the per-output-channel scale fold).
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

template <class S>
std::vector<S> MulColVec(int64_t rows, int64_t n, const std::vector<double>& x,
                         const std::vector<double>& col) {
  std::vector<S> out(static_cast<size_t>(rows * n));
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      out[static_cast<size_t>(i * n + j)] = In<S>(x[static_cast<size_t>(i * n + j)]) * In<S>(col[static_cast<size_t>(j)]);
    }
  }
  return out;
}

}  // namespace vt::oracle
