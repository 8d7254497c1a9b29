// matmul_bt oracle (vLLM F.linear(x, W) with W [N,K]): out[i,j] =
// sum_k a[i,k] * w[j,k], accumulated from +0 in increasing k. Plain loops,
// written for the [N,K] weight directly (not through matmul's oracle).
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

// a [m,k] and w [n,k] row-major logical values; returns out [m,n].
template <class S>
std::vector<S> MatmulBt(int64_t m, int64_t k, int64_t n, const std::vector<double>& a,
                        const std::vector<double>& w) {
  std::vector<S> out(static_cast<std::size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      S acc = In<S>(0.0);
      for (int64_t p = 0; p < k; ++p) {
        acc = acc + In<S>(a[static_cast<std::size_t>(i * k + p)]) * In<S>(w[static_cast<std::size_t>(j * k + p)]);
      }
      out[static_cast<std::size_t>(i * n + j)] = acc;
    }
  }
  return out;
}

}  // namespace vt::oracle
