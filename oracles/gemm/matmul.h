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

// out [m,n] = sum_p a[i,p] * B(p,j), where B(p,j) = b[p * p_stride + j *
// j_stride]: the right operand read in either orientation (matmul's [k,n],
// matmul_bt's [n,k] weight), a row-major [m,k] on the left.
template <class S>
std::vector<S> MatrixProduct(int64_t m, int64_t k, int64_t n, const std::vector<double>& a,
                             const std::vector<double>& b, int64_t p_stride, int64_t j_stride) {
  std::vector<S> out(static_cast<std::size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      S acc = In<S>(0.0);
      for (int64_t p = 0; p < k; ++p) {
        acc = acc + In<S>(a[static_cast<std::size_t>(i * k + p)]) *
                        In<S>(b[static_cast<std::size_t>(p * p_stride + j * j_stride)]);
      }
      out[static_cast<std::size_t>(i * n + j)] = acc;
    }
  }
  return out;
}

// a [m,k] and b [k,n] row-major logical values; returns out [m,n].
template <class S>
std::vector<S> Matmul(int64_t m, int64_t k, int64_t n, const std::vector<double>& a,
                      const std::vector<double>& b) {
  return MatrixProduct<S>(m, k, n, a, b, n, 1);
}

}  // namespace vt::oracle
