// mul_col_vec_f32 oracle: x[m,n] * col[n] (the per-output-channel scale fold).
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/act/elementwise.h"

namespace vt::oracle {

template <class S>
std::vector<S> MulColVec(int64_t rows, int64_t n, const std::vector<double>& x,
                         const std::vector<double>& col) {
  return Grid<S>(rows, n, [&](int64_t i, int64_t j) {
    return In<S>(x[static_cast<size_t>(i * n + j)]) * In<S>(col[static_cast<size_t>(j)]);
  });
}

}  // namespace vt::oracle
