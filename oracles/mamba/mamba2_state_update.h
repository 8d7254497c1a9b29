// mamba2_state_update oracle (mamba-ssm selective_state_update_ref at
// Mamba2's scalar-per-head shape: dt, A, D one value per head). It specifies;
// it does not optimise. Per live batch row b (slot = state_indices[b], or b):
//   d  = dt[b,h] (+ dt_bias[h]), softplus'd when asked (identity above 20)
//   s' = s * exp(A[h] d) + (B[b,g] x[b,h,p]) d     stored to the state dtype
//   y  = sum_n s'_n C[b,g,n] (+ D[h] x) (* silu(z))  from the unrounded s'
// A NULL row (negative index) has y = 0 and touches no slot.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/act/activations.h"
#include "oracles/scalar.h"

namespace vt::oracle {

struct Mamba2StepProblem {
  int64_t Nb = 0, H = 0, P = 0, G = 0, N = 0, S = 0;
  std::vector<double> x, dt, A, B, C, D, z, dt_bias, state;  // D, z, dt_bias may be empty
  std::vector<int64_t> slots;                                // empty: row b owns slot b
  bool dt_softplus = false;
  Fmt state_fmt = Fmt::kF32;
};

template <class S>
struct Mamba2StepResult {
  std::vector<S> out, state;
};

template <class S>
Mamba2StepResult<S> Mamba2StateUpdate(const Mamba2StepProblem& q) {
  const int64_t H = q.H, P = q.P, G = q.G, N = q.N;
  Mamba2StepResult<S> r;
  r.out.assign(static_cast<size_t>(q.Nb * H * P), In<S>(0.0));
  for (double v : q.state) r.state.push_back(In<S>(v));
  for (int64_t b = 0; b < q.Nb; ++b) {
    const int64_t slot = q.slots.empty() ? b : q.slots[static_cast<size_t>(b)];
    if (slot < 0) continue;
    for (int64_t h = 0; h < H; ++h) {
      const int64_t g = h / (H / G);
      S d = In<S>(q.dt[static_cast<size_t>(b * H + h)]);
      if (!q.dt_bias.empty()) d = d + In<S>(q.dt_bias[static_cast<size_t>(h)]);
      if (q.dt_softplus && ValueOf(d) <= 20.0) d = Log1p(Exp(d));
      const S decay = Exp(In<S>(q.A[static_cast<size_t>(h)]) * d);
      for (int64_t p = 0; p < P; ++p) {
        const size_t xi = static_cast<size_t>((b * H + h) * P + p);
        const S x = In<S>(q.x[xi]);
        S y = In<S>(0.0);
        for (int64_t n = 0; n < N; ++n) {
          const size_t bi = static_cast<size_t>((b * G + g) * N + n);
          const size_t si = static_cast<size_t>(((slot * H + h) * P + p) * N + n);
          const S s = r.state[si] * decay + In<S>(q.B[bi]) * x * d;
          r.state[si] = Store(q.state_fmt, s);
          y = y + s * In<S>(q.C[bi]);
        }
        if (!q.D.empty()) y = y + In<S>(q.D[static_cast<size_t>(h)]) * x;
        if (!q.z.empty()) y = y * Silu(In<S>(q.z[xi]));
        r.out[xi] = y;
      }
    }
  }
  return r;
}

}  // namespace vt::oracle
