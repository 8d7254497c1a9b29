// mamba2_state_update CPU kernel: one selective-state-update step per batch
// row at Mamba2's scalar-per-head shape (upstream's CPU
// selective_state_update_kernel). Contract (validated by
// vt::Mamba2StateUpdate): shapes as vt/ops_mamba.h, A < 0, live slot indices
// in range and distinct. Split: batch rows; each row owns its out row and its
// one state slot, so bytes never depend on the thread count.
//   d  = dt (+ dt_bias) (softplus), dA = exp(A d)
//   s' = s dA + (B x) d          stored at the state dtype
//   y  = sum_n s'_n C_n (+ D x) (* silu(z)), from the f32 s' (not the stored copy)
#include <cmath>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "cpu/mamba/mamba_math.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void Mamba2StateUpdateCpu(const ExecContext& ctx, const Tensor& out, const Tensor& state,
                          const Tensor& x, const Tensor& dt, const Tensor& A, const Tensor& B,
                          const Tensor& C, const Tensor* D, const Tensor* z, const Tensor* dt_bias,
                          const Tensor* state_indices, const Mamba2Args& args) {
  const int64_t Nb = x.shape[0], H = x.shape[1], P = x.shape[2];
  const int64_t G = B.shape[1], N = B.shape[2];
  const int64_t heads_per_group = H / G;
  const std::vector<int32_t> slots =
      state_indices != nullptr ? mamba::ReadIndices(*state_indices) : std::vector<int32_t>();
  const std::vector<float> a = mamba::Widen(A);
  const std::vector<float> bias = dt_bias != nullptr ? mamba::Widen(*dt_bias) : std::vector<float>();
  const std::vector<float> Dv = D != nullptr ? mamba::Widen(*D) : std::vector<float>();

  ParallelForRows(ctx, Nb, [&](int64_t r0, int64_t r1) {
    for (int64_t b = r0; b < r1; ++b) {
      const int64_t slot = slots.empty() ? b : slots[static_cast<std::size_t>(b)];
      if (slot < 0) {  // NULL row: zero its output, touch no slot
        for (int64_t k = 0; k < H * P; ++k) StoreF32(out, b * H * P + k, 0.0f);
        continue;
      }
      for (int64_t h = 0; h < H; ++h) {
        const int64_t g = h / heads_per_group;
        float d = LoadF32(dt, b * H + h);
        if (!bias.empty()) d += bias[static_cast<std::size_t>(h)];
        if (args.dt_softplus) d = mamba::SoftplusGuarded(d);
        const float decay = std::exp(a[static_cast<std::size_t>(h)] * d);
        for (int64_t p = 0; p < P; ++p) {
          const float xv = LoadF32(x, (b * H + h) * P + p);
          const int64_t base = ((slot * H + h) * P + p) * N;
          float y = 0.0f;
          for (int64_t n = 0; n < N; ++n) {
            const float bv = LoadF32(B, (b * G + g) * N + n);
            const float cv = LoadF32(C, (b * G + g) * N + n);
            const float s = LoadF32(state, base + n) * decay + bv * xv * d;
            StoreF32(state, base + n, s);
            y += s * cv;
          }
          if (!Dv.empty()) y += Dv[static_cast<std::size_t>(h)] * xv;
          if (z != nullptr) y *= SiluF32(LoadF32(*z, (b * H + h) * P + p));
          StoreF32(out, (b * H + h) * P + p, y);
        }
      }
    }
  });
}

}  // namespace

void Register_mamba2_state_update() {
  RegisterTyped<kernel::Mamba2StateUpdateFn>("mamba2_state_update", Backend::kCPU, &Mamba2StateUpdateCpu);
}

}  // namespace vt::cpu
