// gdn_spec_decode oracle (fla fused_recurrent, spec decoding with in-place
// per-token states): request r starts from slot idx[r][accepted-1]; after its
// t-th token the running state is stored into slot idx[r][t] (NULL: skipped).
// A NULL start slot: the request's out rows are 0 and nothing is stored.
#pragma once

#include "oracles/gdn/gdn_prefill.h"

namespace vt::oracle {

// cu: R+1 offsets; idx: [R, C] row-major; accepted: R values in [1, C].
template <class S>
GdnResult<S> GdnSpecDecode(const GdnDims& d, int64_t tokens, const std::vector<int64_t>& cu,
                           const std::vector<int64_t>& idx, int64_t cols, const std::vector<int64_t>& accepted,
                           const std::vector<double>& q, const std::vector<double>& k,
                           const std::vector<double>& v, const std::vector<double>& g,
                           const std::vector<double>& beta, const std::vector<double>& state, double scale) {
  GdnResult<S> r{std::vector<S>(static_cast<size_t>(tokens * d.hv * d.dv), In<S>(0.0)), Promote<S>(state)};
  for (std::size_t req = 0; req + 1 < cu.size(); ++req) {
    const int64_t start = idx[req * static_cast<size_t>(cols) + static_cast<size_t>(accepted[req] - 1)];
    if (start < 0) continue;
    // The running state of the whole request, [Hv, Dv, Dk].
    std::vector<S> running(r.state.begin() + start * d.SlotElems(), r.state.begin() + (start + 1) * d.SlotElems());
    for (int64_t t = cu[req]; t < cu[req + 1]; ++t) {
      for (int64_t hv = 0; hv < d.hv; ++hv) DeltaRuleTokenAt(running, hv * d.HeadElems(), d, t, hv, q, k, v, g, beta, scale, r.out);
      const int64_t snap = idx[req * static_cast<size_t>(cols) + static_cast<size_t>(t - cu[req])];
      if (snap >= 0) std::copy(running.begin(), running.end(), r.state.begin() + snap * d.SlotElems());
    }
  }
  return r;
}

}  // namespace vt::oracle
