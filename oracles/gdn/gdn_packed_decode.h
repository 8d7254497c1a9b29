// gdn_packed_decode oracle (vLLM fused_recurrent_gated_delta_rule_packed_decode):
// per request row, from the packed projections mixed_qkv = [q | k | v]:
//   q, k L2-normalised (eps 1e-6 inside the root), q' = q * (inv * scale);
//   g = -exp(a_log) * softplus(a + dt_bias), softplus(x) = x above 20;
//   beta = sigmoid(b), stored to b's dtype (the upstream boundary);
//   the delta-rule step on cache slot idx[b]: the updated state is stored to
//   the state's dtype, the output uses the updated values before that store.
// NULL slot: out row 0, no state change.
#pragma once

#include <algorithm>

#include "oracles/gdn/gdn_prefill.h"

namespace vt::oracle {

template <class S>
S SoftplusGuarded(S x) {
  return ValueOf(x) <= 20.0 ? Log1p(Exp(x)) : x;
}

// mixed: [B, W] logical row-major; a, b: [B, Hv]; a_log, dt_bias: [Hv];
// state: [slots, Hv, Dv, Dk] values of the state dtype.
template <class S>
GdnResult<S> GdnPackedDecode(const GdnDims& d, int64_t batch, const std::vector<double>& mixed,
                             const std::vector<double>& a, const std::vector<double>& b,
                             const std::vector<double>& a_log, const std::vector<double>& dt_bias,
                             const std::vector<double>& state, const std::vector<int64_t>& idx, double scale,
                             Fmt b_fmt) {
  GdnResult<S> r{std::vector<S>(static_cast<size_t>(batch * d.hv * d.dv), In<S>(0.0)), Promote<S>(state)};
  const int64_t width = 2 * d.hk * d.dk + d.hv * d.dv;
  std::vector<S> q(static_cast<size_t>(d.dk)), k(static_cast<size_t>(d.dk));
  for (int64_t bt = 0; bt < batch; ++bt) {
    const int64_t slot = idx[static_cast<size_t>(bt)];
    if (slot < 0) continue;
    const double* row = mixed.data() + bt * width;
    for (int64_t hv = 0; hv < d.hv; ++hv) {
      const int64_t hk = d.KeyHead(hv);
      S qss = In<S>(0.0), kss = In<S>(0.0);
      for (int64_t j = 0; j < d.dk; ++j) {
        q[static_cast<size_t>(j)] = In<S>(row[hk * d.dk + j]);
        k[static_cast<size_t>(j)] = In<S>(row[(d.hk + hk) * d.dk + j]);
        qss = qss + q[static_cast<size_t>(j)] * q[static_cast<size_t>(j)];
        kss = kss + k[static_cast<size_t>(j)] * k[static_cast<size_t>(j)];
      }
      const S qf = In<S>(1.0) / Sqrt(qss + Lit<S>(1e-6)) * In<S>(scale);
      const S kf = In<S>(1.0) / Sqrt(kss + Lit<S>(1e-6));
      for (int64_t j = 0; j < d.dk; ++j) {
        q[static_cast<size_t>(j)] = q[static_cast<size_t>(j)] * qf;
        k[static_cast<size_t>(j)] = k[static_cast<size_t>(j)] * kf;
      }
      const size_t ai = static_cast<size_t>(bt * d.hv + hv);
      const S x = In<S>(a[ai]) + In<S>(dt_bias[static_cast<size_t>(hv)]);
      const S g = -(Exp(In<S>(a_log[static_cast<size_t>(hv)])) * SoftplusGuarded(x));
      const S beta = Store(b_fmt, In<S>(1.0) / (In<S>(1.0) + Exp(-In<S>(b[ai]))));
      const S decay = Exp(g);
      for (int64_t i = 0; i < d.dv; ++i) {
        const int64_t base = ((slot * d.hv + hv) * d.dv + i) * d.dk;
        std::vector<S> s(static_cast<size_t>(d.dk));
        S sk = In<S>(0.0);
        for (int64_t j = 0; j < d.dk; ++j) {
          s[static_cast<size_t>(j)] = r.state[static_cast<size_t>(base + j)] * decay;
          sk = sk + s[static_cast<size_t>(j)] * k[static_cast<size_t>(j)];
        }
        const S vnew = (In<S>(row[2 * d.hk * d.dk + hv * d.dv + i]) - sk) * beta;
        S o = In<S>(0.0);
        for (int64_t j = 0; j < d.dk; ++j) {
          const S upd = s[static_cast<size_t>(j)] + vnew * k[static_cast<size_t>(j)];
          // The store to the state's dtype is the output's own rounding,
          // applied by the comparison (and by the f32_definition check).
          r.state[static_cast<size_t>(base + j)] = upd;
          o = o + upd * q[static_cast<size_t>(j)];
        }
        r.out[static_cast<size_t>((bt * d.hv + hv) * d.dv + i)] = o;
      }
    }
  }
  return r;
}

}  // namespace vt::oracle
