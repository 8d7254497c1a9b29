// kda_chunk_prefill oracle: the KDA gate (fla ops/kda/gate.py naive_kda_gate:
// g = -exp(A_log[h]) * softplus(g_raw + dt_bias), softplus threshold 20; no
// dt_bias when it is empty), then the KDA delta rule
// (oracles/gdn/kda_gated_delta_rule.h) on one sequence. upstream's chunked
// (WY) form equals the recurrence up to reduction order. Specifies; does not
// optimise.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/gdn/kda_gated_delta_rule.h"
#include "oracles/gdn/softplus.h"

namespace vt::oracle {

// g_raw [T,Hv,Dk]; a_log [Hv]; dt_bias [Hv*Dk] or empty.
template <class S>
std::vector<S> KdaGate(int64_t tokens, int64_t hv, int64_t dk, const std::vector<double>& g_raw,
                       const std::vector<double>& a_log, const std::vector<double>& dt_bias) {
  std::vector<S> g;
  for (int64_t t = 0; t < tokens; ++t) {
    for (int64_t h = 0; h < hv; ++h) {
      for (int64_t i = 0; i < dk; ++i) {
        S x = In<S>(g_raw[static_cast<std::size_t>((t * hv + h) * dk + i)]);
        if (!dt_bias.empty()) x = x + In<S>(dt_bias[static_cast<std::size_t>(h * dk + i)]);
        g.push_back(GateDecay(In<S>(a_log[static_cast<std::size_t>(h)]), x));
      }
    }
  }
  return g;
}

template <class S>
KdaResult<S> KdaChunkPrefill(const KdaDims& d, int64_t tokens, const std::vector<double>& q,
                             const std::vector<double>& k, const std::vector<double>& v,
                             const std::vector<double>& g_raw, const std::vector<double>& beta,
                             const std::vector<double>& a_log, const std::vector<double>& dt_bias,
                             const std::vector<double>& state0, double scale) {
  const std::vector<S> g = KdaGate<S>(tokens, d.hv, d.dk, g_raw, a_log, dt_bias);
  return KdaGatedDeltaRule<S>(d, {0, tokens}, q, k, v, g, beta, state0, scale);
}

}  // namespace vt::oracle
