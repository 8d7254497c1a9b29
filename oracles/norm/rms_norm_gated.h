// rms_norm_gated oracle (FLA layernorm_guard rmsnorm_fn / vLLM RMSNormGated,
// norm_before_gate=True, group_size=None):
//   out = x / sqrt(mean(x^2) + eps) * w * act(gate), act = silu or sigmoid,
//   silu(z) = z * sigmoid(z) = z / (1 + exp(-z)).
// `gate` is given as rows of the logical [rows, D] view.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/act/activations.h"
#include "oracles/norm/rms_norm.h"

namespace vt::oracle {

template <class S>
std::vector<S> RmsNormGated(int64_t rows, int64_t d, const std::vector<double>& x,
                            const std::vector<double>& gate, const std::vector<double>& w,
                            double eps, bool sigmoid_gate) {
  std::vector<S> out(static_cast<size_t>(rows * d));
  std::vector<S> v(static_cast<size_t>(d));
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < d; ++j) v[static_cast<size_t>(j)] = In<S>(x[static_cast<size_t>(i * d + j)]);
    const S inv = RmsInv(v, eps);
    for (int64_t j = 0; j < d; ++j) {
      const S z = In<S>(gate[static_cast<size_t>(i * d + j)]);
      const S act = sigmoid_gate ? Sigmoid(z) : Silu(z);
      out[static_cast<size_t>(i * d + j)] = v[static_cast<size_t>(j)] * inv * In<S>(w[static_cast<size_t>(j)]) * act;
    }
  }
  return out;
}

}  // namespace vt::oracle
