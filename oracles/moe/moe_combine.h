// moe_combine oracle (vLLM fused-MoE final reduction, torch_experts' weighted
// sum; moe_runner's routed scaling of the assembled sum before the shared
// add): out[t,:] = (sum_j w[t,j] * x[t,j,:]) * routed_scale + shared[t,:],
// the sum in j order, one rounding to out's format. Specifies; plain loops.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

template <class S>
std::vector<S> MoeCombine(int64_t t, int64_t k, int64_t h, const std::vector<double>& expert_out,
                          const std::vector<double>& weights, const std::vector<double>* shared,
                          float routed_scale, Fmt out_fmt) {
  std::vector<S> out(static_cast<size_t>(t * h));
  for (int64_t row = 0; row < t; ++row) {
    for (int64_t col = 0; col < h; ++col) {
      S acc = In<S>(0.0);
      for (int64_t j = 0; j < k; ++j) {
        acc += In<S>(weights[static_cast<size_t>(row * k + j)]) *
               In<S>(expert_out[static_cast<size_t>((row * k + j) * h + col)]);
      }
      if (routed_scale != 1.0f) acc = acc * In<S>(static_cast<double>(routed_scale));
      if (shared != nullptr) acc += In<S>((*shared)[static_cast<size_t>(row * h + col)]);
      out[static_cast<size_t>(row * h + col)] = Store(out_fmt, acc);
    }
  }
  return out;
}

}  // namespace vt::oracle
