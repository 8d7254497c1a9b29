// The loops of the elementwise activation oracles: a definition f of one
// output element, applied over the flat order, over a [rows, n] grid, or over
// the two halves of a gated linear unit's input. The loops only place values;
// f holds the whole definition (its operations, in its order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

// out[k] = f(x[k]) over the flat order, x given exactly.
template <class S, class F>
std::vector<S> Map(const std::vector<double>& x, F f) {
  std::vector<S> out;
  out.reserve(x.size());
  for (double xi : x) out.push_back(f(In<S>(xi)));
  return out;
}

// out[k] = f(a[k], b[k]) over the flat order (a and b of one element count).
template <class S, class F>
std::vector<S> Zip(const std::vector<double>& a, const std::vector<double>& b, F f) {
  std::vector<S> out;
  out.reserve(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) out.push_back(f(In<S>(a[k]), In<S>(b[k])));
  return out;
}

// out[i, j] = f(i, j) over a row-major [rows, n] grid.
template <class S, class F>
std::vector<S> Grid(int64_t rows, int64_t n, F f) {
  std::vector<S> out(static_cast<std::size_t>(rows * n));
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < n; ++j) out[static_cast<std::size_t>(i * n + j)] = f(i, j);
  }
  return out;
}

// A gated linear unit over x [rows, 2D]: out[i, j] = f(gate, up) with
// gate = x[i, j] and up = x[i, D + j].
template <class S, class F>
std::vector<S> GatedHalves(int64_t rows, int64_t d, const std::vector<double>& x, F f) {
  return Grid<S>(rows, d, [&](int64_t i, int64_t j) {
    return f(In<S>(x[static_cast<std::size_t>(i * 2 * d + j)]), In<S>(x[static_cast<std::size_t>(i * 2 * d + d + j)]));
  });
}

}  // namespace vt::oracle
