// The gated delta rule (GDN), written from its definition (op-contracts 3.6,
// fla naive_recurrent_gated_delta_rule with vLLM's [Dv, Dk] state layout).
// Specifies, does not optimise: plain loops over one token of one value head at
// a time, double for the truth, float for the same-precision baseline.
//   q' = q * scale;  S = S * exp(g);  v' = (v - S k) * beta;
//   S = S + v' k^T;  out = S q'
// GQA: value head hv reads key head hv / (Hv / Hk) (torch repeat_interleave).
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

struct GdnDims {
  int64_t hk = 1, dk = 1, hv = 1, dv = 1;
  int64_t HeadElems() const { return dv * dk; }
  int64_t SlotElems() const { return hv * dv * dk; }
  int64_t KeyHead(int64_t value_head) const { return value_head / (hv / hk); }
};

// One token of value head `hv` on the head block st[off .. off + Dv*Dk).
// q (already scaled), k: Dk values; v: Dv values. Writes Dv outputs.
template <class S>
void DeltaRuleToken(std::vector<S>& st, int64_t off, const GdnDims& d, const S* q, const S* k, const S* v,
                    S g, S beta, S* out) {
  const S decay = Exp(g);
  for (int64_t e = 0; e < d.HeadElems(); ++e) st[static_cast<size_t>(off + e)] = st[static_cast<size_t>(off + e)] * decay;
  std::vector<S> vnew(static_cast<size_t>(d.dv));
  for (int64_t i = 0; i < d.dv; ++i) {
    S sk = In<S>(0.0);  // (S k)[i]
    for (int64_t j = 0; j < d.dk; ++j) sk = sk + st[static_cast<size_t>(off + i * d.dk + j)] * k[j];
    vnew[static_cast<size_t>(i)] = (v[i] - sk) * beta;
  }
  for (int64_t i = 0; i < d.dv; ++i) {
    for (int64_t j = 0; j < d.dk; ++j) {
      S& s = st[static_cast<size_t>(off + i * d.dk + j)];
      s = s + vnew[static_cast<size_t>(i)] * k[j];
    }
  }
  for (int64_t i = 0; i < d.dv; ++i) {
    S o = In<S>(0.0);
    for (int64_t j = 0; j < d.dk; ++j) o = o + st[static_cast<size_t>(off + i * d.dk + j)] * q[j];
    out[i] = o;
  }
}

// Token t of a [T,Hk,Dk] q/k, [T,Hv,Dv] v, [T,Hv] g/beta operand set, value
// head hv, on head block `off` of st; its outputs go to out[(t*Hv + hv)*Dv ...].
template <class S>
void DeltaRuleTokenAt(std::vector<S>& st, int64_t off, const GdnDims& d, int64_t t, int64_t hv,
                      const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v,
                      const std::vector<double>& g, const std::vector<double>& beta, double scale,
                      std::vector<S>& out) {
  const int64_t hk = d.KeyHead(hv);
  std::vector<S> qs(static_cast<size_t>(d.dk)), ks(static_cast<size_t>(d.dk)), vs(static_cast<size_t>(d.dv));
  for (int64_t j = 0; j < d.dk; ++j) {
    qs[static_cast<size_t>(j)] = In<S>(q[static_cast<size_t>((t * d.hk + hk) * d.dk + j)]) * In<S>(scale);
    ks[static_cast<size_t>(j)] = In<S>(k[static_cast<size_t>((t * d.hk + hk) * d.dk + j)]);
  }
  for (int64_t i = 0; i < d.dv; ++i) vs[static_cast<size_t>(i)] = In<S>(v[static_cast<size_t>((t * d.hv + hv) * d.dv + i)]);
  const size_t gi = static_cast<size_t>(t * d.hv + hv);
  DeltaRuleToken(st, off, d, qs.data(), ks.data(), vs.data(), In<S>(g[gi]), In<S>(beta[gi]),
                 out.data() + (t * d.hv + hv) * d.dv);
}

template <class S>
std::vector<S> Promote(const std::vector<double>& x) {
  std::vector<S> r;
  r.reserve(x.size());
  for (double e : x) r.push_back(In<S>(e));
  return r;
}

}  // namespace vt::oracle
