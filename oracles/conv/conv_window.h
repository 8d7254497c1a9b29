// The causal conv's one definition, shared by the conv oracles: a channel's
// output at one token is act(bias + sum_{j<K} w[j] * stream[start + j]), the
// stream being the channel's K-1 state taps followed by its tokens' x values
// (upstream causal_conv1d_ref: F.conv1d over cat(initial_states, x) with
// left padding K-1). The sum starts at the bias (0 without one) and adds the
// taps in order j = 0..K-1: the order the spec fixes for the f32 evaluation.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/act/activations.h"
#include "oracles/scalar.h"

namespace vt::oracle {

template <class S>
S ConvTap(const double* w, int64_t k, const std::vector<S>& stream, int64_t start, const double* bias, bool silu) {
  S acc = In<S>(bias != nullptr ? *bias : 0.0);
  for (int64_t j = 0; j < k; ++j) acc = acc + In<S>(w[j]) * stream[static_cast<std::size_t>(start + j)];
  return silu ? Silu(acc) : acc;
}

}  // namespace vt::oracle
