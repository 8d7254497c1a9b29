// batched_matmul oracle (torch.bmm, used by vLLM's MLA weight absorption):
// out[g,i,j] = sum_k a[g,i,k] * b[g,k,j], accumulated from +0 in increasing k.
// Operands are the LOGICAL values (row-major over [G,M,K] / [G,K,N]); how a
// view lays them out in memory is the kernel's business, not the definition's.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

template <class S>
std::vector<S> BatchedMatmul(int64_t g, int64_t m, int64_t k, int64_t n, const std::vector<double>& a,
                             const std::vector<double>& b) {
  std::vector<S> out(static_cast<std::size_t>(g * m * n));
  for (int64_t q = 0; q < g; ++q) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        S acc = In<S>(0.0);
        for (int64_t p = 0; p < k; ++p) {
          acc = acc + In<S>(a[static_cast<std::size_t>((q * m + i) * k + p)]) *
                          In<S>(b[static_cast<std::size_t>((q * k + p) * n + j)]);
        }
        out[static_cast<std::size_t>((q * m + i) * n + j)] = acc;
      }
    }
  }
  return out;
}

}  // namespace vt::oracle
