// shared_expert_gate oracle (Qwen MoE shared expert): out[t,c] = sigmoid(gl[t]) * sd[t,c].
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/act/activations.h"
#include "oracles/act/elementwise.h"

namespace vt::oracle {

template <class S>
std::vector<S> SharedExpertGate(int64_t rows, int64_t h, const std::vector<double>& sd,
                                const std::vector<double>& gl) {
  std::vector<S> g;  // one gate per token row
  for (int64_t t = 0; t < rows; ++t) g.push_back(Sigmoid(In<S>(gl[static_cast<size_t>(t)])));
  return Grid<S>(rows, h, [&](int64_t t, int64_t c) {
    return g[static_cast<size_t>(t)] * In<S>(sd[static_cast<size_t>(t * h + c)]);
  });
}

}  // namespace vt::oracle
