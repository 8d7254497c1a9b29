// gdn_decode oracle: one gated-delta-rule token per request on its state row
// (row b, or cache slot idx[b]); a NULL slot (< 0): out row 0, no state change.
#pragma once

#include "oracles/gdn/gdn_prefill.h"

namespace vt::oracle {

// idx empty: request b uses state row b.
template <class S>
GdnResult<S> GdnDecode(const GdnDims& d, int64_t batch, const std::vector<int64_t>& idx,
                       const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v,
                       const std::vector<double>& g, const std::vector<double>& beta,
                       const std::vector<double>& state, double scale) {
  GdnResult<S> r{std::vector<S>(static_cast<size_t>(batch * d.hv * d.dv), In<S>(0.0)), Promote<S>(state)};
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t slot = idx.empty() ? b : idx[static_cast<size_t>(b)];
    if (slot < 0) continue;
    for (int64_t hv = 0; hv < d.hv; ++hv) {
      DeltaRuleTokenAt(r.state, slot * d.SlotElems() + hv * d.HeadElems(), d, b, hv, q, k, v, g, beta, scale, r.out);
    }
  }
  return r;
}

}  // namespace vt::oracle
