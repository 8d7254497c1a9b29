// mamba2_state_update CPU kernel: one selective-state-update step per batch
// row at Mamba2's scalar-per-head shape (upstream's CPU
// selective_state_update_kernel). Contract (validated by
// vt::Mamba2StateUpdate): shapes as vt/ops_mamba.h, A < 0, live slot indices
// in range and distinct. Split: batch rows; each row owns its out row and its
// one state slot, so bytes never depend on the thread count.
// Tiers: portable (below, the reference), avx2 and avx512 (mamba_tiers.h:
// the same elementwise update and the same per-p chain, kLanes p side by
// side; the same bytes).
//   d  = dt (+ dt_bias) (softplus), dA = exp(A d)
//   s' = s dA + (B x) d          stored at the state dtype
//   y  = sum_n s'_n C_n (+ D x) (* silu(z)), from the f32 s' (not the stored copy)
#include <cmath>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "cpu/mamba/mamba_math.h"
#include "cpu/mamba/mamba_tiers.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

// What the tiers share per call: the operands, the per-call widened vectors
// and the portable tier's scalar code for everything per head or per p.
struct Step {
  const Tensor &out, &state, &x, &dt, &B, &C;
  const Tensor* z;
  const Mamba2Args& args;
  int64_t H, P, G, N;
  std::vector<int32_t> slots;
  std::vector<float> a, bias, Dv;

  int64_t Slot(int64_t b) const { return slots.empty() ? b : slots[static_cast<std::size_t>(b)]; }
  // d = dt (+ dt_bias) (softplus); returns dA = exp(A d).
  float Decay(int64_t b, int64_t h, float& d) const {
    d = LoadF32(dt, b * H + h);
    if (!bias.empty()) d += bias[static_cast<std::size_t>(h)];
    if (args.dt_softplus) d = mamba::SoftplusGuarded(d);
    return std::exp(a[static_cast<std::size_t>(h)] * d);
  }
  // y (+ D x) (* silu(z)), stored at out's dtype.
  void Finish(int64_t b, int64_t h, int64_t p, float xv, float y) const {
    if (!Dv.empty()) y += Dv[static_cast<std::size_t>(h)] * xv;
    if (z != nullptr) y *= SiluF32(LoadF32(*z, (b * H + h) * P + p));
    StoreF32(out, (b * H + h) * P + p, y);
  }
};

// Portable: split over batch rows.
void RunPortable(const ExecContext& ctx, const Step& st, int64_t Nb) {
  const int64_t H = st.H, P = st.P, N = st.N, heads_per_group = H / st.G;
  ParallelForRows(ctx, Nb, [&](int64_t r0, int64_t r1) {
    CountTierRun(Isa::kPortable);
    for (int64_t b = r0; b < r1; ++b) {
      const int64_t slot = st.Slot(b);
      if (slot < 0) {  // NULL row: zero its output, touch no slot
        for (int64_t k = 0; k < H * P; ++k) StoreF32(st.out, b * H * P + k, 0.0f);
        continue;
      }
      for (int64_t h = 0; h < H; ++h) {
        const int64_t g = h / heads_per_group;
        float d;
        const float decay = st.Decay(b, h, d);
        for (int64_t p = 0; p < P; ++p) {
          const float xv = LoadF32(st.x, (b * H + h) * P + p);
          const int64_t base = ((slot * H + h) * P + p) * N;
          float y = 0.0f;
          for (int64_t n = 0; n < N; ++n) {
            const float bv = LoadF32(st.B, (b * st.G + g) * N + n);
            const float cv = LoadF32(st.C, (b * st.G + g) * N + n);
            const float s = LoadF32(st.state, base + n) * decay + bv * xv * d;
            StoreF32(st.state, base + n, s);
            y += s * cv;
          }
          st.Finish(b, h, p, xv, y);
        }
      }
    }
  });
}

// Vector tiers (mamba_tiers.h): split over (batch row, head) pairs - each
// owns its out slice and its state block, so bytes never depend on the
// split. x is widened to f32 per pair and B, C per (row, group) (exact); the
// state update and the y chains run in the tier, the rest here.
void RunTier(const ExecContext& ctx, Isa tier, const Step& st, int64_t Nb) {
  const int64_t H = st.H, P = st.P, N = st.N, heads_per_group = H / st.G;
  const int64_t state_bytes = static_cast<int64_t>(SizeOf(st.state.dtype));
  ParallelForRows(ctx, Nb * H, [&](int64_t u0, int64_t u1) {
    CountTierRun(tier);
    std::vector<float> xb(static_cast<std::size_t>(P)), yb(static_cast<std::size_t>(P));
    std::vector<float> bb(static_cast<std::size_t>(N)), cb(static_cast<std::size_t>(N));
    int64_t widened = -1;  // the (row, group) whose B and C are in bb / cb
    for (int64_t u = u0; u < u1; ++u) {
      const int64_t b = u / H, h = u % H, g = h / heads_per_group;
      const int64_t slot = st.Slot(b);
      if (slot < 0) {  // NULL row: zero its output, touch no slot
        for (int64_t p = 0; p < P; ++p) StoreF32(st.out, u * P + p, 0.0f);
        continue;
      }
      Mamba2HeadJob job;
      job.decay = st.Decay(b, h, job.d);
      for (int64_t p = 0; p < P; ++p) xb[static_cast<std::size_t>(p)] = LoadF32(st.x, u * P + p);
      if (b * st.G + g != widened) {  // a group's heads are consecutive: B and C widened once per group
        widened = b * st.G + g;
        for (int64_t n = 0; n < N; ++n) {
          bb[static_cast<std::size_t>(n)] = LoadF32(st.B, widened * N + n);
          cb[static_cast<std::size_t>(n)] = LoadF32(st.C, widened * N + n);
        }
      }
      job.state = static_cast<unsigned char*>(st.state.data) + (slot * H + h) * P * N * state_bytes;
      job.state_dt = st.state.dtype;
      job.x = xb.data(), job.B = bb.data(), job.C = cb.data(), job.y = yb.data();
      job.P = P, job.N = N;
      RunMamba2Tier(tier, job);
      for (int64_t p = 0; p < P; ++p) st.Finish(b, h, p, xb[static_cast<std::size_t>(p)], yb[static_cast<std::size_t>(p)]);
    }
  });
}

void Mamba2StateUpdateCpu(const ExecContext& ctx, const Tensor& out, const Tensor& state,
                          const Tensor& x, const Tensor& dt, const Tensor& A, const Tensor& B,
                          const Tensor& C, const Tensor* D, const Tensor* z, const Tensor* dt_bias,
                          const Tensor* state_indices, const Mamba2Args& args) {
  const Step st{out, state, x, dt, B, C, z, args, x.shape[1], x.shape[2], B.shape[1], B.shape[2],
                state_indices != nullptr ? mamba::ReadIndices(*state_indices) : std::vector<int32_t>(),
                mamba::Widen(A), dt_bias != nullptr ? mamba::Widen(*dt_bias) : std::vector<float>(),
                D != nullptr ? mamba::Widen(*D) : std::vector<float>()};
  static const std::vector<Isa> kTiers = OpTiers("mamba2_state_update");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);
  if (tier == Isa::kPortable) {
    RunPortable(ctx, st, x.shape[0]);
  } else {
    RunTier(ctx, tier, st, x.shape[0]);
  }
}

}  // namespace

void Register_mamba2_state_update() {
  RegisterTyped<kernel::Mamba2StateUpdateFn>("mamba2_state_update", Backend::kCPU, &Mamba2StateUpdateCpu);
}

}  // namespace vt::cpu
