// causal_conv1d_fwd oracle (upstream causal_conv1d_fn / causal_conv1d_ref,
// varlen by query_start_loc). Specifies, does not optimise: per sequence and
// channel it builds the stream [initial state taps (or K-1 zeros) | the
// sequence's x], every output is the windowed sum of K consecutive stream
// values (conv_window.h), and the final state is the stream's last K-1 values.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/conv/conv_window.h"

namespace vt::oracle {

template <class S>
struct ConvOutputs {
  std::vector<S> out;    // [T,C]
  std::vector<S> state;  // the whole conv_state after the call
};

// x [T,C], w [C,K], bias [C] or empty, state [N,C,K-1], qsl [N+1], init [N].
template <class S>
ConvOutputs<S> CausalConv1dFwd(int64_t channels, int64_t k, const std::vector<double>& x, const std::vector<double>& w,
                               const std::vector<double>& bias, const std::vector<double>& state,
                               const std::vector<int64_t>& qsl, const std::vector<int64_t>& init, bool silu) {
  const int64_t width = k - 1, n = static_cast<int64_t>(init.size());
  const int64_t total = qsl.empty() ? 0 : qsl.back();
  ConvOutputs<S> r;
  r.out.assign(static_cast<std::size_t>(total * channels), In<S>(0.0));
  r.state.reserve(state.size());
  for (double v : state) r.state.push_back(In<S>(v));
  for (int64_t s = 0; s < n; ++s) {
    const int64_t begin = qsl[static_cast<std::size_t>(s)], len = qsl[static_cast<std::size_t>(s) + 1] - begin;
    for (int64_t c = 0; c < channels; ++c) {
      std::vector<S> stream;
      const int64_t row = (s * channels + c) * width;
      for (int64_t j = 0; j < width; ++j) {
        stream.push_back(In<S>(init[static_cast<std::size_t>(s)] != 0 ? state[static_cast<std::size_t>(row + j)] : 0.0));
      }
      for (int64_t t = 0; t < len; ++t) stream.push_back(In<S>(x[static_cast<std::size_t>((begin + t) * channels + c)]));
      for (int64_t t = 0; t < len; ++t) {
        r.out[static_cast<std::size_t>((begin + t) * channels + c)] =
            ConvTap<S>(&w[static_cast<std::size_t>(c * k)], k, stream, t, bias.empty() ? nullptr : &bias[static_cast<std::size_t>(c)], silu);
      }
      for (int64_t j = 0; j < width; ++j) {
        r.state[static_cast<std::size_t>(row + j)] = stream[static_cast<std::size_t>(len + j)];
      }
    }
  }
  return r;
}

}  // namespace vt::oracle
