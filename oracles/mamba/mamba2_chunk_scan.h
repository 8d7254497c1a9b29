// mamba2_chunk_scan oracle: the plain sequential SSM recurrence over each
// sequence, token by token, with no chunking at all (mamba-ssm's
// ssd_minimal_discrete computes the same quantity chunk-wise; vLLM's
// mamba_chunk_scan_combined_varlen is the semantic source). It specifies;
// it does not optimise. For sequence s, head h, token t:
//   d_t   = clamp(softplus?(dt_t + dt_bias), dt_min, dt_max)
//   h_t   = exp(d_t A) h_{t-1} + d_t B_t x_t        (h_{-1} = initial state or 0)
//   y_t   = (C_t . h_t + D x_t) [* silu(z_t)]
//   final = h_T (stored at the state dtype)
// The one rounding the op defines inside the recurrence: the state handed
// from a chunk to the next is read back at the state dtype (upstream stores
// it at that width). Modelled explicitly: a second copy `held` restarts from
// Store(state_fmt, h) at every chunk start that is not a sequence start and
// follows the same recurrence; y reads `held`. The running h itself is never
// rounded (upstream keeps it in f32 registers across chunks).
// S = double is the truth, S = float the same-precision baseline.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "oracles/act/activations.h"
#include "oracles/scalar.h"

namespace vt::oracle {

struct Mamba2ScanProblem {
  int64_t T = 0, H = 0, P = 0, G = 0, N = 0, S = 0;
  std::vector<double> x, dt, A, B, C;      // [T,H,P], [T,H], [H], [T,G,N] x2
  std::vector<double> D, z, dt_bias, init;  // empty when absent
  bool d_per_channel = false;              // D is [H,P] (else [H])
  std::vector<int64_t> cu_seqlens;         // [S+1]
  std::vector<int64_t> cu_chunk_seqlens;   // [nchunks+1]: where the state is handed over
  bool dt_softplus = false;
  double dt_min = 0.0, dt_max = 0.0;
  Fmt state_fmt = Fmt::kF32;
  // A planted bug, for the claim that shows the tolerance rejects it (never
  // set by the oracle mode): every chunk inside a sequence starts its decay
  // cumsum from the previous chunk's total instead of 0, which scales the
  // state entering the chunk by exp(previous total).
  bool planted_cumsum_carry = false;
};

template <class S>
struct Mamba2ScanResult {
  std::vector<S> out;           // [T,H,P], before the store to out's dtype
  std::vector<S> final_states;  // [S,H,P,N], before the store
};

template <class S>
S Mamba2Dt(const Mamba2ScanProblem& q, double raw, int64_t h, bool clamp) {
  S d = In<S>(raw);
  if (!q.dt_bias.empty()) d = d + In<S>(q.dt_bias[static_cast<size_t>(h)]);
  if (q.dt_softplus && ValueOf(d) <= 20.0) d = Log1p(Exp(d));
  if (clamp) d = std::min(std::max(d, static_cast<S>(q.dt_min)), static_cast<S>(q.dt_max));
  return d;
}

template <class S>
Mamba2ScanResult<S> Mamba2ChunkScanRecurrence(const Mamba2ScanProblem& q) {
  const int64_t T = q.T, H = q.H, P = q.P, G = q.G, N = q.N, PN = q.P * q.N;
  Mamba2ScanResult<S> r;
  r.out.assign(static_cast<size_t>(T * H * P), S(0));
  r.final_states.assign(static_cast<size_t>(q.S * H * PN), S(0));
  // handover[t]: a chunk starts at token t inside a sequence (not its first).
  std::vector<char> handover(static_cast<size_t>(T + 1), 0);
  for (int64_t t : q.cu_chunk_seqlens) handover[static_cast<size_t>(t)] = 1;
  for (int64_t t : q.cu_seqlens) handover[static_cast<size_t>(t)] = 0;

  std::vector<S> h(static_cast<size_t>(PN)), held(static_cast<size_t>(PN));
  for (int64_t s = 0; s < q.S; ++s) {
    for (int64_t hd = 0; hd < H; ++hd) {
      const int64_t g = hd / (H / G);
      for (int64_t k = 0; k < PN; ++k) {
        h[static_cast<size_t>(k)] =
            q.init.empty() ? S(0) : In<S>(q.init[static_cast<size_t>((s * H + hd) * PN + k)]);
      }
      held = h;
      const S a = In<S>(q.A[static_cast<size_t>(hd)]);
      S chunk_total = S(0);  // planted_cumsum_carry only
      for (int64_t t = q.cu_seqlens[static_cast<size_t>(s)]; t < q.cu_seqlens[static_cast<size_t>(s + 1)]; ++t) {
        if (handover[static_cast<size_t>(t)]) {
          if (q.planted_cumsum_carry) {
            for (int64_t k = 0; k < PN; ++k) h[static_cast<size_t>(k)] = Exp(chunk_total) * h[static_cast<size_t>(k)];
          }
          for (int64_t k = 0; k < PN; ++k) held[static_cast<size_t>(k)] = Store(q.state_fmt, h[static_cast<size_t>(k)]);
          chunk_total = S(0);
        }
        const S d = Mamba2Dt<S>(q, q.dt[static_cast<size_t>(t * H + hd)], hd, true);
        const S decay = Exp(d * a);
        chunk_total = chunk_total + d * a;
        for (int64_t p = 0; p < P; ++p) {
          const size_t xi = static_cast<size_t>((t * H + hd) * P + p);
          const S dx = d * In<S>(q.x[xi]);
          S y = S(0);
          for (int64_t n = 0; n < N; ++n) {
            const size_t bi = static_cast<size_t>((t * G + g) * N + n), k = static_cast<size_t>(p * N + n);
            const S inject = dx * In<S>(q.B[bi]);
            h[k] = decay * h[k] + inject;
            held[k] = decay * held[k] + inject;
            y = y + In<S>(q.C[bi]) * held[k];
          }
          if (!q.D.empty()) {
            y = y + In<S>(q.D[static_cast<size_t>(q.d_per_channel ? hd * P + p : hd)]) * In<S>(q.x[xi]);
          }
          if (!q.z.empty()) y = y * Silu(In<S>(q.z[xi]));
          r.out[xi] = y;
        }
      }
      for (int64_t k = 0; k < PN; ++k) r.final_states[static_cast<size_t>((s * H + hd) * PN + k)] = h[static_cast<size_t>(k)];
    }
  }
  return r;
}

}  // namespace vt::oracle

namespace vt::oracle {

// What the chunk scan's tolerance needs beyond the two recurrences
// (docs/ops/mamba.md, "Tolerance"): the chunked algorithm forms every decay
// as exp of a difference of f32 cumulative sums of dt * A inside a chunk, so
// its decays carry the absolute error of those sums, which the per-token
// recurrence never forms. The seed fixes the cumsum's order (acc += dt * A in
// f32, from 0 at each chunk start), so its error is computed exactly here;
// everything else is a magnitude in double.
struct Mamba2ScanScale {
  double cumsum_err = 0.0;     // max |f32 cumsum - exact cumsum| over chunks and heads
  double chunk_decay = 0.0;    // max |cumulative dt * A| inside any chunk
  int64_t longest_chunk = 0;
  std::vector<double> out_abs;    // [T,H,P]: the recurrence on |C|, |B|, |x|, |D|, times |silu(z)|
  std::vector<double> state_abs;  // [S,H,P,N]: the state recurrence on |B|, |x|
  std::vector<double> out_flip;   // [T,H,P]: effect on y of handover roundings that may flip
};

// relative_err: the relative error bound of every decay factor and product
// (given by the caller from cumsum_err, once known) - used to decide which
// handover roundings of a non-f32 state may go either way.
inline Mamba2ScanScale Mamba2ChunkScanScale(const Mamba2ScanProblem& q, double relative_err) {
  const int64_t T = q.T, H = q.H, P = q.P, G = q.G, N = q.N, PN = q.P * q.N;
  Mamba2ScanScale r;
  const auto& cu = q.cu_chunk_seqlens;
  for (std::size_t c = 0; c + 1 < cu.size(); ++c) {
    r.longest_chunk = std::max<int64_t>(r.longest_chunk, cu[c + 1] - cu[c]);
    for (int64_t h = 0; h < H; ++h) {
      float acc32 = 0.0f;
      double acc64 = 0.0;
      const float a32 = static_cast<float>(q.A[static_cast<size_t>(h)]);
      for (int64_t t = cu[c]; t < cu[c + 1]; ++t) {
        const float d32 = Mamba2Dt<float>(q, q.dt[static_cast<size_t>(t * H + h)], h, true);
        const double d64 = Mamba2Dt<double>(q, q.dt[static_cast<size_t>(t * H + h)], h, true);
        acc32 += d32 * a32;
        acc64 += d64 * q.A[static_cast<size_t>(h)];
        r.cumsum_err = std::max(r.cumsum_err, std::fabs(static_cast<double>(acc32) - acc64));
        r.chunk_decay = std::max(r.chunk_decay, std::fabs(acc64));
      }
    }
  }
  std::vector<char> handover(static_cast<size_t>(T + 1), 0);
  for (int64_t t : q.cu_chunk_seqlens) handover[static_cast<size_t>(t)] = 1;
  for (int64_t t : q.cu_seqlens) handover[static_cast<size_t>(t)] = 0;
  r.out_abs.assign(static_cast<size_t>(T * H * P), 0.0);
  r.out_flip.assign(r.out_abs.size(), 0.0);
  r.state_abs.assign(static_cast<size_t>(q.S * H * PN), 0.0);
  std::vector<double> h(static_cast<size_t>(PN)), habs(h.size()), flip(h.size());
  for (int64_t s = 0; s < q.S; ++s) {
    for (int64_t hd = 0; hd < H; ++hd) {
      const int64_t g = hd / (H / G);
      for (int64_t k = 0; k < PN; ++k) {
        const double v = q.init.empty() ? 0.0 : q.init[static_cast<size_t>((s * H + hd) * PN + k)];
        h[static_cast<size_t>(k)] = v;
        habs[static_cast<size_t>(k)] = std::fabs(v);
        flip[static_cast<size_t>(k)] = 0.0;
      }
      for (int64_t t = q.cu_seqlens[static_cast<size_t>(s)]; t < q.cu_seqlens[static_cast<size_t>(s + 1)]; ++t) {
        if (handover[static_cast<size_t>(t)] && q.state_fmt != Fmt::kF32) {
          for (int64_t k = 0; k < PN; ++k) {
            const double v = h[static_cast<size_t>(k)], tol = relative_err * habs[static_cast<size_t>(k)] + 1e-30;
            flip[static_cast<size_t>(k)] = RoundReal(q.state_fmt, v + tol) - RoundReal(q.state_fmt, v - tol);
          }
        }
        const double d = Mamba2Dt<double>(q, q.dt[static_cast<size_t>(t * H + hd)], hd, true);
        const double decay = std::exp(d * q.A[static_cast<size_t>(hd)]);
        for (int64_t p = 0; p < P; ++p) {
          const size_t xi = static_cast<size_t>((t * H + hd) * P + p);
          double yabs = 0.0, yflip = 0.0;
          for (int64_t n = 0; n < N; ++n) {
            const size_t bi = static_cast<size_t>((t * G + g) * N + n), k = static_cast<size_t>(p * N + n);
            h[k] = decay * h[k] + d * q.x[xi] * q.B[bi];
            habs[k] = decay * habs[k] + d * std::fabs(q.x[xi] * q.B[bi]);
            flip[k] = decay * flip[k];
            yabs += std::fabs(q.C[bi]) * habs[k];
            yflip += std::fabs(q.C[bi]) * flip[k];
          }
          if (!q.D.empty()) yabs += std::fabs(q.D[static_cast<size_t>(q.d_per_channel ? hd * P + p : hd)] * q.x[xi]);
          if (!q.z.empty()) {
            const double gate = std::fabs(Silu(q.z[xi]));
            yabs *= gate;
            yflip *= gate;
          }
          r.out_abs[xi] = yabs;
          r.out_flip[xi] = yflip;
        }
      }
      for (int64_t k = 0; k < PN; ++k) r.state_abs[static_cast<size_t>((s * H + hd) * PN + k)] = habs[static_cast<size_t>(k)];
    }
  }
  return r;
}

}  // namespace vt::oracle
