// kda_gated_delta_rule oracle: the KDA delta rule token by token (fla
// ops/kda/naive.py naive_recurrent_kda; op-contracts 3.6), written from the
// formula. Per sequence and value head hv (key head hv / (Hv / Hk)), state
// S [Dv, Dk], for each token in order:
//   q' = q * scale
//   S[:, i] *= exp(g[i])               (one log decay per key channel i)
//   u = (v - S k) * beta               (the delta-rule correction)
//   S += u (x) k                       (rank-1 update)
//   out = S q'
// Templated on the scalar: S = double is the truth, S = float the
// same-precision baseline (and, in this order, the seed's f32 definition).
// Specifies; does not optimise.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/scalar.h"

namespace vt::oracle {

struct KdaDims {
  int64_t hk = 1, hv = 1, dk = 1, dv = 1;
};

template <class S>
struct KdaResult {
  std::vector<S> out;    // [T, Hv, Dv]
  std::vector<S> state;  // [N, Hv, Dv, Dk], the final states
};

// loc: query_start_loc (N + 1 values). q, k [T,Hk,Dk]; v [T,Hv,Dv]; g
// [T,Hv,Dk] (as S: kda_chunk_prefill passes the gate it computed); beta
// [T,Hv]; state [N,Hv,Dv,Dk] (initial).
template <class S>
KdaResult<S> KdaGatedDeltaRule(const KdaDims& d, const std::vector<int64_t>& loc, const std::vector<double>& q,
                               const std::vector<double>& k, const std::vector<double>& v, const std::vector<S>& g,
                               const std::vector<double>& beta, const std::vector<double>& state0, double scale) {
  const int64_t n = static_cast<int64_t>(loc.size()) - 1;
  const int64_t tokens = loc.empty() ? 0 : loc.back();
  const int64_t group = d.hv / d.hk;
  KdaResult<S> r;
  r.out.assign(static_cast<std::size_t>(tokens * d.hv * d.dv), In<S>(0.0));
  for (double x : state0) r.state.push_back(In<S>(x));
  auto at = [](int64_t i) { return static_cast<std::size_t>(i); };
  for (int64_t seq = 0; seq < n; ++seq) {
    for (int64_t hv = 0; hv < d.hv; ++hv) {
      const int64_t hk = hv / group;
      S* st = r.state.data() + (seq * d.hv + hv) * d.dv * d.dk;  // st[row * dk + i]
      for (int64_t t = loc[at(seq)]; t < loc[at(seq + 1)]; ++t) {
        const int64_t kr = (t * d.hk + hk) * d.dk, vr = (t * d.hv + hv) * d.dv, gr = (t * d.hv + hv) * d.dk;
        for (int64_t row = 0; row < d.dv; ++row) {
          for (int64_t i = 0; i < d.dk; ++i) st[row * d.dk + i] = st[row * d.dk + i] * Exp(g[at(gr + i)]);
        }
        std::vector<S> u(at(d.dv));
        for (int64_t row = 0; row < d.dv; ++row) {
          S sk = In<S>(0.0);
          for (int64_t i = 0; i < d.dk; ++i) sk = sk + st[row * d.dk + i] * In<S>(k[at(kr + i)]);
          u[at(row)] = (In<S>(v[at(vr + row)]) - sk) * In<S>(beta[at(t * d.hv + hv)]);
        }
        for (int64_t row = 0; row < d.dv; ++row) {
          for (int64_t i = 0; i < d.dk; ++i) st[row * d.dk + i] = st[row * d.dk + i] + u[at(row)] * In<S>(k[at(kr + i)]);
        }
        for (int64_t row = 0; row < d.dv; ++row) {
          S o = In<S>(0.0);
          for (int64_t i = 0; i < d.dk; ++i) o = o + st[row * d.dk + i] * (In<S>(q[at(kr + i)]) * In<S>(scale));
          r.out[at(vr + row)] = o;
        }
      }
    }
  }
  return r;
}

}  // namespace vt::oracle
