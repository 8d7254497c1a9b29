// mamba2_chunk_scan CPU kernel: the five-stage varlen SSD pipeline of
// upstream's _mamba_chunk_scan_combined_fwd, in its order and at its rounding
// points. Contract (validated by vt::Mamba2ChunkScan): shapes as
// vt/ops_mamba.h, metadata tiling [0, T) with in-sequence chunks of 1..cs
// tokens, A < 0, 0 <= dt_min <= dt_max. Arithmetic is f32 throughout; the
// only narrowing inside the pipeline is the state passed between chunks,
// which is read back at the state dtype (upstream stores it at that width).
// Each stage splits its own outputs across threads (per head; per chunk and
// head; per sequence and head; per chunk and group; per chunk and head), so
// bytes never depend on the thread count.
// Tiers: portable (below, the reference), avx2 and avx512 for stages 2, 4
// and 5 (mamba_tiers.h: lanes along n in stage 2, along j in stage 4, along p
// in stage 5, each sum kept in its order; the same bytes). Stages 1 and 3 and
// every exp are the portable code in every tier.
//
// Buffers are sized by the longest chunk L (<= cs) rather than cs: upstream
// pads a partial chunk with dt = 0 up to cs, and those positions add exactly
// zero to the cumulative decay, so the chunk's total decay is its value at
// the chunk's last real token.
#include <algorithm>
#include <cmath>
#include <vector>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "cpu/mamba/mamba_math.h"
#include "cpu/mamba/mamba_tiers.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

using std::size_t;

void Mamba2ChunkScanCpu(const ExecContext& ctx, const Tensor& out, const Tensor& final_states,
                        const Tensor& x_t, const Tensor& dt_t, const Tensor& A, const Tensor& B_t,
                        const Tensor& C_t, const Tensor* D, const Tensor* z_t,
                        const Tensor* dt_bias, const Tensor* initial_states,
                        const Tensor& cu_seqlens, const Tensor& cu_chunk_seqlens,
                        const Tensor& last_chunk_indices, const Tensor& seq_idx,
                        const Mamba2Args& args) {
  (void)cu_seqlens;  // the validator proved the chunks tile the sequences
  const int64_t H = x_t.shape[1], P = x_t.shape[2];
  const int64_t G = B_t.shape[1], N = B_t.shape[2];
  const int64_t S = final_states.shape[0];
  const int64_t heads_per_group = H / G;
  const int64_t PN = P * N;
  static const std::vector<Isa> kTiers = OpTiers("mamba2_chunk_scan");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);

  const std::vector<int32_t> ccs = mamba::ReadIndices(cu_chunk_seqlens);
  const std::vector<int32_t> lci = mamba::ReadIndices(last_chunk_indices);
  const std::vector<int32_t> sidx = mamba::ReadIndices(seq_idx);
  const int64_t nchunks = static_cast<int64_t>(sidx.size());
  int64_t L = 1;
  for (int64_t c = 0; c < nchunks; ++c) L = std::max<int64_t>(L, ccs[c + 1] - ccs[c]);

  const std::vector<float> x = mamba::Widen(x_t), dt = mamba::Widen(dt_t);
  const std::vector<float> Bv = mamba::Widen(B_t), Cv = mamba::Widen(C_t);
  const std::vector<float> zv = z_t != nullptr ? mamba::Widen(*z_t) : std::vector<float>();
  const std::vector<float> a = mamba::Widen(A);
  const std::vector<float> bias = dt_bias != nullptr ? mamba::Widen(*dt_bias) : std::vector<float>();
  const std::vector<float> Dv = D != nullptr ? mamba::Widen(*D) : std::vector<float>();
  const bool d_per_channel = D != nullptr && D->rank == 2;
  const std::vector<float> init =
      initial_states != nullptr ? mamba::Widen(*initial_states) : std::vector<float>();

  auto Len = [&](int64_t c) { return static_cast<int64_t>(ccs[c + 1] - ccs[c]); };
  // dt and cumulative decay of (head h, chunk c, position i): [H][nchunks][L].
  auto At = [&](int64_t h, int64_t c, int64_t i) { return static_cast<size_t>((h * nchunks + c) * L + i); };

  // Stage 1 (_chunk_cumsum_fwd): dt after bias, softplus and clamp, and the
  // running sum of dt * A inside each chunk.
  std::vector<float> dtv(static_cast<size_t>(H * nchunks * L), 0.0f);
  std::vector<float> dac(static_cast<size_t>(H * nchunks * L), 0.0f);
  ParallelForRows(ctx, H, [&](int64_t h0, int64_t h1) {
    for (int64_t h = h0; h < h1; ++h) {
      for (int64_t c = 0; c < nchunks; ++c) {
        float acc = 0.0f;
        for (int64_t i = 0; i < Len(c); ++i) {
          float d = dt[static_cast<size_t>((ccs[c] + i) * H + h)];
          if (!bias.empty()) d += bias[static_cast<size_t>(h)];
          if (args.dt_softplus) d = mamba::SoftplusGuarded(d);
          d = std::min(std::max(d, args.dt_min), args.dt_max);
          dtv[At(h, c, i)] = d;
          acc += d * a[static_cast<size_t>(h)];
          dac[At(h, c, i)] = acc;
        }
      }
    }
  });
  auto Total = [&](int64_t h, int64_t c) { return dac[At(h, c, Len(c) - 1)]; };

  // Stage 2 (_chunk_state_fwd): each chunk's own contribution to the state,
  // decayed to the chunk's end, in f32 (upstream's states_in_fp32).
  std::vector<float> states(static_cast<size_t>(nchunks * H * PN), 0.0f);
  ParallelForRows(ctx, nchunks * H, [&](int64_t r0, int64_t r1) {
    CountTierRun(tier);
    // brow: one scaled B row (portable), or all the chunk's (the tiers).
    std::vector<float> brow(static_cast<size_t>(tier == Isa::kPortable ? N : L * N + 16));
    std::vector<float> scales(static_cast<size_t>(L));
    std::vector<int64_t> live(static_cast<size_t>(L));
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t c = r / H, h = r % H, g = h / heads_per_group;
      const float last = Total(h, c);
      float* st = states.data() + static_cast<size_t>(r * PN);
      for (int64_t i = 0; i < Len(c); ++i) {
        // last - dac <= 0 by A < 0 and dt >= 0; the min(., 0) is upstream's.
        scales[static_cast<size_t>(i)] = std::exp(std::min(last - dac[At(h, c, i)], 0.0f)) * dtv[At(h, c, i)];
      }
      if (tier != Isa::kPortable) {
        ChunkStateJob job;
        job.st = st, job.brow = brow.data(), job.live = live.data(), job.scale = scales.data();
        job.x = x.data() + static_cast<size_t>((ccs[c] * H + h) * P), job.x_stride = H * P;
        job.B = Bv.data() + static_cast<size_t>((ccs[c] * G + g) * N), job.b_stride = G * N;
        job.len = Len(c), job.P = P, job.N = N;
        RunMamba2Tier(tier, job);
        continue;
      }
      for (int64_t i = 0; i < Len(c); ++i) {
        const float scale = scales[static_cast<size_t>(i)];
        if (scale == 0.0f) continue;
        const int64_t t = ccs[c] + i;
        for (int64_t n = 0; n < N; ++n) {
          brow[static_cast<size_t>(n)] = Bv[static_cast<size_t>((t * G + g) * N + n)] * scale;
        }
        for (int64_t p = 0; p < P; ++p) {
          const float xv = x[static_cast<size_t>((t * H + h) * P + p)];
          float* srow = st + p * N;
          for (int64_t n = 0; n < N; ++n) srow[n] += xv * brow[static_cast<size_t>(n)];
        }
      }
    }
  });

  // Stage 3 (_state_passing_fwd): per sequence, S_c = exp(total_c) S_{c-1} +
  // states_c from the initial state (or zeros). The running state stays f32;
  // the copy stage 5 reads is held at the state dtype (`passed`), and the
  // final state is stored once.
  std::vector<float> passed(static_cast<size_t>(nchunks * H * PN), 0.0f);
  const DType state_dtype = final_states.dtype;
  ParallelForRows(ctx, S * H, [&](int64_t r0, int64_t r1) {
    std::vector<float> s(static_cast<size_t>(PN));
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t b = r / H, h = r % H;
      if (init.empty()) {
        std::fill(s.begin(), s.end(), 0.0f);
      } else {
        std::copy(init.begin() + r * PN, init.begin() + (r + 1) * PN, s.begin());
      }
      for (int64_t c = b > 0 ? lci[b - 1] + 1 : 0; c <= lci[b]; ++c) {
        const float decay = std::exp(Total(h, c));
        const float* own = states.data() + static_cast<size_t>((c * H + h) * PN);
        float* held = passed.data() + static_cast<size_t>((c * H + h) * PN);
        for (int64_t k = 0; k < PN; ++k) {
          s[static_cast<size_t>(k)] = s[static_cast<size_t>(k)] * decay + own[k];
          held[k] = RoundThrough(state_dtype, s[static_cast<size_t>(k)]);
        }
      }
      for (int64_t k = 0; k < PN; ++k) StoreF32(final_states, r * PN + k, s[static_cast<size_t>(k)]);
    }
  });

  // Stage 4 (_bmm_chunk_fwd): CB[c,g,i,j] = C_i . B_j for j <= i, f32.
  std::vector<float> cb(static_cast<size_t>(nchunks * G * L * L), 0.0f);
  ParallelForRows(ctx, nchunks * G, [&](int64_t r0, int64_t r1) {
    CountTierRun(tier);
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t c = r / G, g = r % G;
      float* dst = cb.data() + static_cast<size_t>(r * L * L);
      for (int64_t i = 0; i < Len(c); ++i) {
        const float* ci = Cv.data() + static_cast<size_t>(((ccs[c] + i) * G + g) * N);
        if (tier != Isa::kPortable) {
          ChunkCbJob job;
          job.C = ci, job.B = Bv.data() + static_cast<size_t>((ccs[c] * G + g) * N), job.b_stride = G * N;
          job.count = i + 1, job.N = N, job.y = dst + i * L;
          RunMamba2Tier(tier, job);
          continue;
        }
        for (int64_t j = 0; j <= i; ++j) {
          const float* bj = Bv.data() + static_cast<size_t>(((ccs[c] + j) * G + g) * N);
          float acc = 0.0f;
          for (int64_t n = 0; n < N; ++n) acc += ci[n] * bj[n];
          dst[i * L + j] = acc;
        }
      }
    }
  });

  // Stage 5 (_chunk_scan_fwd): out_i = exp(dac_i) (C_i . S_prev)
  //   + sum_{j<=i} CB_ij exp(dac_i - dac_j) dt_j x_j + D x_i, then * silu(z_i).
  ParallelForRows(ctx, nchunks * H, [&](int64_t r0, int64_t r1) {
    CountTierRun(tier);
    std::vector<float> w(static_cast<size_t>(L)), y(static_cast<size_t>(P));
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t c = r / H, h = r % H, g = h / heads_per_group;
      // The state entering the chunk: the previous chunk's passed state, or
      // at a sequence's first chunk its initial state (none: zeros, and the
      // inter-chunk term is skipped).
      const bool opens = c == 0 || sidx[c] != sidx[c - 1];
      const float* prev = nullptr;
      if (!opens) {
        prev = passed.data() + static_cast<size_t>(((c - 1) * H + h) * PN);
      } else if (!init.empty()) {
        prev = init.data() + static_cast<size_t>((sidx[c] * H + h) * PN);
      }
      const float* cbc = cb.data() + static_cast<size_t>((c * G + g) * L * L);
      for (int64_t i = 0; i < Len(c); ++i) {
        const int64_t t = ccs[c] + i;
        const float da_i = dac[At(h, c, i)];
        const float inter_scale = std::exp(da_i);
        const float* ci = Cv.data() + static_cast<size_t>((t * G + g) * N);
        for (int64_t j = 0; j <= i; ++j) {
          w[static_cast<size_t>(j)] =
              cbc[i * L + j] * std::exp(std::min(da_i - dac[At(h, c, j)], 0.0f)) * dtv[At(h, c, j)];
        }
        if (tier != Isa::kPortable) {
          ChunkOutJob job;
          job.prev = prev, job.C = ci, job.w = w.data(), job.inter_scale = inter_scale;
          job.x = x.data() + static_cast<size_t>((ccs[c] * H + h) * P), job.x_stride = H * P;
          job.i = i, job.P = P, job.N = N, job.y = y.data();
          RunMamba2Tier(tier, job);
        }
        for (int64_t p = 0; p < P; ++p) {
          const size_t xi = static_cast<size_t>((t * H + h) * P + p);
          float acc = y[static_cast<size_t>(p)];  // the tier's, or:
          if (tier == Isa::kPortable) {
            acc = 0.0f;
            if (prev != nullptr) {
              for (int64_t n = 0; n < N; ++n) acc += ci[n] * prev[p * N + n];
            }
            acc *= inter_scale;
            for (int64_t j = 0; j <= i; ++j) {
              acc += w[static_cast<size_t>(j)] * x[static_cast<size_t>(((ccs[c] + j) * H + h) * P + p)];
            }
          }
          if (!Dv.empty()) acc += (d_per_channel ? Dv[static_cast<size_t>(h * P + p)] : Dv[static_cast<size_t>(h)]) * x[xi];
          if (!zv.empty()) acc *= SiluF32(zv[xi]);
          StoreF32(out, static_cast<int64_t>(xi), acc);
        }
      }
    }
  });
}

}  // namespace

void Register_mamba2_chunk_scan() {
  RegisterTyped<kernel::Mamba2ChunkScanFn>("mamba2_chunk_scan", Backend::kCPU, &Mamba2ChunkScanCpu);
}

}  // namespace vt::cpu
