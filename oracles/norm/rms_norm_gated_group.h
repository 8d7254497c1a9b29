// rms_norm_gated_group oracle (vLLM mamba_mixer2 Mixer2RMSNormGated.forward_native):
//   v = x * silu(gate)               (gate promoted to f32 first)
//   no weight: out = v cast back to the input dtype
//   weight:    per group of hidden/n_groups columns,
//              out = w * (v / sqrt(mean_group(v^2) + eps)) cast to the input dtype
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/act/activations.h"
#include "oracles/norm/rms_norm.h"

namespace vt::oracle {

template <class S>
std::vector<S> RmsNormGatedGroup(int64_t rows, int64_t hidden, const std::vector<double>& x,
                                 const std::vector<double>& gate, const std::vector<double>* w,
                                 int n_groups, double eps, Fmt input_fmt) {
  std::vector<S> out(static_cast<size_t>(rows * hidden));
  const int64_t group = hidden / n_groups;
  std::vector<S> v(static_cast<size_t>(hidden));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < hidden; ++j) {
      const size_t at = static_cast<size_t>(r * hidden + j);
      v[static_cast<size_t>(j)] = In<S>(x[at]) * Silu(In<S>(gate[at]));
    }
    for (int64_t g0 = 0; g0 < hidden; g0 += group) {
      if (w == nullptr) {
        for (int64_t j = g0; j < g0 + group; ++j) {
          out[static_cast<size_t>(r * hidden + j)] = Store(input_fmt, v[static_cast<size_t>(j)]);
        }
        continue;
      }
      const std::vector<S> part(v.begin() + g0, v.begin() + g0 + group);
      const S inv = RmsInv(part, eps);
      for (int64_t j = g0; j < g0 + group; ++j) {
        out[static_cast<size_t>(r * hidden + j)] =
            In<S>((*w)[static_cast<size_t>(j)]) * Store(input_fmt, v[static_cast<size_t>(j)] * inv);
      }
    }
  }
  return out;
}

}  // namespace vt::oracle
