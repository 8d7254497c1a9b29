// causal_conv1d_spec_update oracle (upstream causal_conv1d_update with
// num_accepted_tokens and query_start_loc, the spec-decoding branch). The
// state row is a window of L taps; request r reads it at offset
// off = accepted - 1: the stream is row[off .. off+K-2] followed by the
// request's n tokens, and output t is the windowed sum at stream position t
// (conv_window.h). The new row is the old row from off+1 on (0 past its end),
// as many taps as leave room for the n tokens, then the tokens. A NULL
// request (slot < 0) has out = 0 (H-6) and touches no state; an empty request
// touches nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/conv/causal_conv1d_fwd.h"

namespace vt::oracle {

// x [T,C], w [C,K], bias [C] or empty, state [N,C,L], cu [R+1], slot [R],
// accepted [R].
template <class S>
ConvOutputs<S> CausalConv1dSpecUpdate(int64_t channels, int64_t k, int64_t len, const std::vector<double>& x,
                                      const std::vector<double>& w, const std::vector<double>& bias,
                                      const std::vector<double>& state, const std::vector<int64_t>& cu,
                                      const std::vector<int64_t>& slot, const std::vector<int64_t>& accepted,
                                      bool silu) {
  const int64_t width = k - 1, requests = static_cast<int64_t>(slot.size());
  ConvOutputs<S> r;
  r.out.assign(static_cast<std::size_t>(cu.back() * channels), In<S>(0.0));
  r.state.reserve(state.size());
  for (double v : state) r.state.push_back(In<S>(v));
  for (int64_t i = 0; i < requests; ++i) {
    const int64_t s = slot[static_cast<std::size_t>(i)];
    const int64_t lo = cu[static_cast<std::size_t>(i)], n = cu[static_cast<std::size_t>(i) + 1] - lo;
    if (s < 0 || n == 0) continue;
    const int64_t off = accepted[static_cast<std::size_t>(i)] - 1;
    for (int64_t c = 0; c < channels; ++c) {
      const int64_t row = (s * channels + c) * len;
      auto old = [&](int64_t col) { return col < len ? state[static_cast<std::size_t>(row + col)] : 0.0; };
      std::vector<S> stream;
      for (int64_t j = 0; j < width; ++j) stream.push_back(In<S>(old(off + j)));
      for (int64_t t = 0; t < n; ++t) stream.push_back(In<S>(x[static_cast<std::size_t>((lo + t) * channels + c)]));
      for (int64_t t = 0; t < n; ++t) {
        r.out[static_cast<std::size_t>((lo + t) * channels + c)] =
            ConvTap<S>(&w[static_cast<std::size_t>(c * k)], k, stream, t, bias.empty() ? nullptr : &bias[static_cast<std::size_t>(c)], silu);
      }
      const int64_t keep = len - n;
      for (int64_t j = 0; j < keep; ++j) r.state[static_cast<std::size_t>(row + j)] = In<S>(old(off + j + 1));
      for (int64_t t = 0; t < n; ++t) r.state[static_cast<std::size_t>(row + keep + t)] = stream[static_cast<std::size_t>(width + t)];
    }
  }
  return r;
}

}  // namespace vt::oracle
