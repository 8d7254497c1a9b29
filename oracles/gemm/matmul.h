// matmul oracle (torch `a.float() @ b.float()`; vLLM F.linear): the
// definition out[i,j] = sum_k a[i,k] * b[k,j]. It specifies, it does not
// optimise: a plain triple loop. The sum is accumulated from +0 in increasing
// k, the order the spec fixes for the f32 evaluation (S = float must equal
// the kernel's bytes); at S = Bounded every product and add carries its f32
// rounding error, which gives the running bound (about gamma_K * sum |a b|, docs/ops/gemm.md).
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

// a [m,k] and b [k,n] row-major logical values; returns out [m,n].
template <class S>
std::vector<S> Matmul(int64_t m, int64_t k, int64_t n, const std::vector<double>& a,
                      const std::vector<double>& b) {
  std::vector<S> out(static_cast<std::size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      S acc = In<S>(0.0);
      for (int64_t p = 0; p < k; ++p) {
        acc = acc + In<S>(a[static_cast<std::size_t>(i * k + p)]) * In<S>(b[static_cast<std::size_t>(p * n + j)]);
      }
      out[static_cast<std::size_t>(i * n + j)] = acc;
    }
  }
  return out;
}

}  // namespace vt::oracle
