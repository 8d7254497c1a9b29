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
// as exp of a difference f_t - f_s of f32 cumulative sums of dt * A (from 0
// at each chunk start; the seed fixes that order), which the per-token
// recurrence never forms. Per step j the sum's error grows by
//   rho_j = |g_j - g_{j-1}| (1 + u) + u |dt_j A|,   g = f32 sum - exact sum,
// measured exactly (the seed's order is replayed), plus the subtraction's
// rounding; a decay spanning steps (s, t] is then off by at most a factor
// exp(sum of rho over (s, t]) - per term, not one worst case per case: late
// in a long chunk the sum is large but the terms it weighs are the recent
// ones, whose spans are short. That is the recurrence run on magnitudes with
// every step's decay widened by exp(rho_j); its excess over the plain
// magnitude run bounds the decays' error. Everything else - N-term dots,
// L-term sums, the chain of handovers, exp and products - is a relative
// error of the widened magnitude, per element and per part of y:
//   the intra-chunk part (tokens j <= i of the element's own chunk, and the
//   D skip): a sum of i + 1 terms, each a CB dot of N terms and a few
//   roundings: (i + 1) u + intra_rel (the seed's stage 5 sums j <= i only);
//   the carried part (C_i . S_prev, S_prev built by earlier chunks' L-term
//   state sums and the chain of handovers): carry_rel.
// (Before issue 21 one relative error with the case's longest chunk was
// charged to every element: on the first token of a chunk that is up to L
// times too wide - vt-fuzz's tolerance_is_sharp found planted bugs hiding
// there.)
struct Mamba2ScanScale {
  std::vector<double> out_err;    // [T,H,P]: bound on the chunked algorithm's own error
  std::vector<double> state_err;  // [S,H,P,N]
  std::vector<double> out_flip;   // [T,H,P]: effect on y of handover roundings that may flip
};

// rho_j of the comment above, per token and head ([T,H]).
inline std::vector<double> Mamba2CumsumStepErr(const Mamba2ScanProblem& q) {
  const double u = 0x1p-24;
  std::vector<double> rho(static_cast<size_t>(q.T * q.H), 0.0);
  const auto& cu = q.cu_chunk_seqlens;
  for (std::size_t c = 0; c + 1 < cu.size(); ++c) {
    for (int64_t h = 0; h < q.H; ++h) {
      float acc32 = 0.0f;
      double acc64 = 0.0, g_prev = 0.0;
      const float a32 = static_cast<float>(q.A[static_cast<size_t>(h)]);
      for (int64_t t = cu[c]; t < cu[c + 1]; ++t) {
        const float d32 = Mamba2Dt<float>(q, q.dt[static_cast<size_t>(t * q.H + h)], h, true);
        const double step = Mamba2Dt<double>(q, q.dt[static_cast<size_t>(t * q.H + h)], h, true) * q.A[static_cast<size_t>(h)];
        acc32 += d32 * a32;
        acc64 += step;
        const double g = static_cast<double>(acc32) - acc64;
        rho[static_cast<size_t>(t * q.H + h)] = std::fabs(g - g_prev) * (1.0 + u) + u * std::fabs(step) * (1.0 + 2.0 * u);
        g_prev = g;
      }
    }
  }
  return rho;
}

inline Mamba2ScanScale Mamba2ChunkScanScale(const Mamba2ScanProblem& q, double intra_rel, double carry_rel) {
  const int64_t T = q.T, H = q.H, P = q.P, G = q.G, N = q.N, PN = q.P * q.N;
  const double u = 0x1p-24;
  const std::vector<double> rho = Mamba2CumsumStepErr(q);
  std::vector<char> chunk_start(static_cast<size_t>(T + 1), 0), handover(static_cast<size_t>(T + 1), 0);
  for (int64_t t : q.cu_chunk_seqlens) chunk_start[static_cast<size_t>(t)] = handover[static_cast<size_t>(t)] = 1;
  for (int64_t t : q.cu_seqlens) handover[static_cast<size_t>(t)] = 0;
  Mamba2ScanScale r;
  r.out_err.assign(static_cast<size_t>(T * H * P), 0.0);
  r.out_flip.assign(r.out_err.size(), 0.0);
  r.state_err.assign(static_cast<size_t>(q.S * H * PN), 0.0);
  // h: the state; magnitudes (abs) and decays-widened magnitudes (wide) of
  // the state carried into the current chunk (c) and of what the chunk has
  // injected so far (i).
  std::vector<double> h(static_cast<size_t>(PN)), abs_c(h.size()), wide_c(h.size()), abs_i(h.size()),
      wide_i(h.size()), flip(h.size());
  for (int64_t s = 0; s < q.S; ++s) {
    for (int64_t hd = 0; hd < H; ++hd) {
      const int64_t g = hd / (H / G);
      for (int64_t k = 0; k < PN; ++k) {
        const double v = q.init.empty() ? 0.0 : q.init[static_cast<size_t>((s * H + hd) * PN + k)];
        h[static_cast<size_t>(k)] = v;
        abs_c[static_cast<size_t>(k)] = wide_c[static_cast<size_t>(k)] = std::fabs(v);
        abs_i[static_cast<size_t>(k)] = wide_i[static_cast<size_t>(k)] = flip[static_cast<size_t>(k)] = 0.0;
      }
      int64_t start = q.cu_seqlens[static_cast<size_t>(s)];
      for (int64_t t = q.cu_seqlens[static_cast<size_t>(s)]; t < q.cu_seqlens[static_cast<size_t>(s + 1)]; ++t) {
        if (chunk_start[static_cast<size_t>(t)]) {
          start = t;
          for (int64_t k = 0; k < PN; ++k) {
            const size_t kk = static_cast<size_t>(k);
            if (handover[static_cast<size_t>(t)] && q.state_fmt != Fmt::kF32) {
              // Where the kernel's state, within its error of the truth, could
              // round to another state-dtype value, one step of that dtype.
              const double abs = abs_c[kk] + abs_i[kk], wide = wide_c[kk] + wide_i[kk];
              const double tol = (wide - abs) + carry_rel * wide + 1e-30;
              flip[kk] = RoundReal(q.state_fmt, h[kk] + tol) - RoundReal(q.state_fmt, h[kk] - tol);
            }
            abs_c[kk] += abs_i[kk];
            wide_c[kk] += wide_i[kk];
            abs_i[kk] = wide_i[kk] = 0.0;
          }
        }
        const double rel_i = static_cast<double>(t - start + 1) * u + intra_rel;
        const double d = Mamba2Dt<double>(q, q.dt[static_cast<size_t>(t * H + hd)], hd, true);
        const double decay = std::exp(d * q.A[static_cast<size_t>(hd)]);
        const double decay_wide = decay * std::exp(rho[static_cast<size_t>(t * H + hd)]);
        for (int64_t p = 0; p < P; ++p) {
          const size_t xi = static_cast<size_t>((t * H + hd) * P + p);
          double y_abs_i = 0.0, y_wide_i = 0.0, y_abs_c = 0.0, y_wide_c = 0.0, yflip = 0.0;
          for (int64_t n = 0; n < N; ++n) {
            const size_t bi = static_cast<size_t>((t * G + g) * N + n), k = static_cast<size_t>(p * N + n);
            const double inject = d * std::fabs(q.x[xi] * q.B[bi]), c = std::fabs(q.C[bi]);
            h[k] = decay * h[k] + d * q.x[xi] * q.B[bi];
            abs_c[k] *= decay;
            wide_c[k] *= decay_wide;
            abs_i[k] = decay * abs_i[k] + inject;
            wide_i[k] = decay_wide * wide_i[k] + inject;
            flip[k] = decay_wide * flip[k];
            y_abs_i += c * abs_i[k];
            y_wide_i += c * wide_i[k];
            y_abs_c += c * abs_c[k];
            y_wide_c += c * wide_c[k];
            yflip += c * flip[k];
          }
          if (!q.D.empty()) {
            const double skip = std::fabs(q.D[static_cast<size_t>(q.d_per_channel ? hd * P + p : hd)] * q.x[xi]);
            y_abs_i += skip;
            y_wide_i += skip;
          }
          double err = (y_wide_i - y_abs_i) + rel_i * y_wide_i + (y_wide_c - y_abs_c) + carry_rel * y_wide_c;
          if (!q.z.empty()) {
            const double gate = std::fabs(Silu(q.z[xi]));
            err *= gate;
            yflip *= gate;
          }
          r.out_err[xi] = err;
          r.out_flip[xi] = yflip;
        }
      }
      for (int64_t k = 0; k < PN; ++k) {
        const size_t kk = static_cast<size_t>(k);
        const double abs = abs_c[kk] + abs_i[kk], wide = wide_c[kk] + wide_i[kk];
        r.state_err[static_cast<size_t>((s * H + hd) * PN + k)] = (wide - abs) + carry_rel * wide;
      }
    }
  }
  return r;
}

}  // namespace vt::oracle
