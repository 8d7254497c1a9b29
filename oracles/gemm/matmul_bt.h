// matmul_bt oracle (vLLM F.linear(x, W) with W [N,K]): out[i,j] =
// sum_k a[i,k] * w[j,k], accumulated from +0 in increasing k. The [N,K]
// weight is read in place (row j of w is column j of the product), not
// transposed into matmul's [K,N] first.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/gemm/matmul.h"

namespace vt::oracle {

// a [m,k] and w [n,k] row-major logical values; returns out [m,n].
template <class S>
std::vector<S> MatmulBt(int64_t m, int64_t k, int64_t n, const std::vector<double>& a,
                        const std::vector<double>& w) {
  return MatrixProduct<S>(m, k, n, a, w, 1, k);
}

}  // namespace vt::oracle
