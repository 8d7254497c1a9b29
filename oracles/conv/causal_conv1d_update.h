// causal_conv1d_update oracle (upstream causal_conv1d_update_ref, one token per
// row): the stream is the slot's leading K-1 taps followed by the token; the
// output is the windowed sum over it (conv_window.h), the new leading taps are
// the stream's last K-1 values; taps past K-1 of a widened row are untouched.
// A NULL row (slot < 0) has out = 0 (the project's definition, H-6) and
// touches no state.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/conv/causal_conv1d_fwd.h"

namespace vt::oracle {

// x [B,C], w [C,K], bias [C] or empty, state [N,C,L], slot [B] (already
// resolved: b itself without indices).
template <class S>
ConvOutputs<S> CausalConv1dUpdate(int64_t channels, int64_t k, int64_t len, const std::vector<double>& x,
                                  const std::vector<double>& w, const std::vector<double>& bias,
                                  const std::vector<double>& state, const std::vector<int64_t>& slot, bool silu) {
  const int64_t width = k - 1, batch = static_cast<int64_t>(slot.size());
  ConvOutputs<S> r;
  r.out.assign(static_cast<std::size_t>(batch * channels), In<S>(0.0));
  r.state.reserve(state.size());
  for (double v : state) r.state.push_back(In<S>(v));
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t s = slot[static_cast<std::size_t>(b)];
    if (s < 0) continue;
    for (int64_t c = 0; c < channels; ++c) {
      const int64_t row = (s * channels + c) * len;
      std::vector<S> stream;
      for (int64_t j = 0; j < width; ++j) stream.push_back(In<S>(state[static_cast<std::size_t>(row + j)]));
      stream.push_back(In<S>(x[static_cast<std::size_t>(b * channels + c)]));
      r.out[static_cast<std::size_t>(b * channels + c)] =
          ConvTap<S>(&w[static_cast<std::size_t>(c * k)], k, stream, 0, bias.empty() ? nullptr : &bias[static_cast<std::size_t>(c)], silu);
      for (int64_t j = 0; j < width; ++j) r.state[static_cast<std::size_t>(row + j)] = stream[static_cast<std::size_t>(j + 1)];
    }
  }
  return r;
}

}  // namespace vt::oracle
