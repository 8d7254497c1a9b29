// gdn_g_beta oracle (fla fused_gdn_gating, the Qwen3-Next GDN gate):
//   g = -exp(A_log) * softplus(a + dt_bias)   (softplus threshold 20)
//   beta = sigmoid(b)
// per token and value head. Specifies; does not optimise.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/act/activations.h"
#include "oracles/gdn/softplus.h"

namespace vt::oracle {

template <class S>
struct GdnGate {
  std::vector<S> g, beta;  // [T, Hv] row-major
};

// a, b [T, Hv] logical values; a_log, dt_bias [Hv].
template <class S>
GdnGate<S> GdnGBeta(int64_t tokens, int64_t hv, const std::vector<double>& a, const std::vector<double>& b,
                    const std::vector<double>& a_log, const std::vector<double>& dt_bias) {
  GdnGate<S> r;
  for (int64_t t = 0; t < tokens; ++t) {
    for (int64_t h = 0; h < hv; ++h) {
      const auto i = static_cast<std::size_t>(t * hv + h);
      const auto hh = static_cast<std::size_t>(h);
      const S x = In<S>(a[i]) + In<S>(dt_bias[hh]);
      r.g.push_back(GateDecay(In<S>(a_log[hh]), x));
      r.beta.push_back(Sigmoid(In<S>(b[i])));
    }
  }
  return r;
}

}  // namespace vt::oracle
