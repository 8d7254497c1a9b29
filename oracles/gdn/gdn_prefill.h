// gdn_prefill oracle: the gated delta rule over each sequence of a varlen batch
// (fla fused_recurrent_gated_delta_rule / naive_recurrent_gated_delta_rule),
// sequence s from its initial state state[s] to its final state there.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/gdn/delta_rule.h"

namespace vt::oracle {

template <class S>
struct GdnResult {
  std::vector<S> out;    // [T, Hv, Dv]
  std::vector<S> state;  // the whole state operand after the call
};

// qsl: N+1 offsets; state: [N, Hv, Dv, Dk].
template <class S>
GdnResult<S> GdnPrefill(const GdnDims& d, int64_t tokens, const std::vector<int64_t>& qsl,
                        const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v,
                        const std::vector<double>& g, const std::vector<double>& beta,
                        const std::vector<double>& state, double scale) {
  GdnResult<S> r{std::vector<S>(static_cast<size_t>(tokens * d.hv * d.dv), In<S>(0.0)), Promote<S>(state)};
  for (std::size_t s = 0; s + 1 < qsl.size(); ++s) {
    for (int64_t hv = 0; hv < d.hv; ++hv) {
      const int64_t off = static_cast<int64_t>(s) * d.SlotElems() + hv * d.HeadElems();
      for (int64_t t = qsl[s]; t < qsl[s + 1]; ++t) DeltaRuleTokenAt(r.state, off, d, t, hv, q, k, v, g, beta, scale, r.out);
    }
  }
  return r;
}

}  // namespace vt::oracle
