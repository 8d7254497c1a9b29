// rms_norm_gated_group CPU kernel (Mamba2 Mixer2RMSNormGated, forward_native):
//   v = x * silu(gate)  (gate promoted to f32 before the silu)
//   no weight:   out = round_through(x.dtype, v)
//   with weight: per group g of size hidden/n_groups,
//                inv = 1 / sqrt(mean_g(v^2) + eps),
//                out = w * round_through(x.dtype, v * inv)
// The weight is read at its own dtype. Contract: x/gate/out contiguous, same
// shape, rank 2 or 3; n_groups divides hidden. Split: rows.
// Tiers: portable (below, the reference) and avx512 (gated_tiers.h,
// GatedGroupJob: the silu tier's vector expf, each group's sum as one
// sequential chain; the same bytes).
#include <vector>

#include "api/kernel_types.h"
#include "cpu/act/silu_tiers.h"
#include "cpu/norm/gated_tiers.h"
#include "cpu/norm/norm_rows.h"
#include "cpu/simd/target.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void RmsNormGatedGroupCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x,
                          const Tensor& gate, const Tensor* w, const RmsNormGatedGroupArgs& args) {
  const int64_t hidden = x.shape[x.rank - 1];
  const int64_t rows = x.Numel() / hidden;
  const int64_t group = hidden / args.n_groups;
  const DType x_dtype = x.dtype;
  static const std::vector<Isa> kTiers = OpTiers("rms_norm_gated_group");
#if VT_X86_TIERS
  if (PickTier(ctx.ResolvedIsa(), kTiers) == Isa::kAvx512) {
    std::vector<float> w32;  // widening f16/bf16 to f32 is exact
    if (w != nullptr) {
      w32.resize(static_cast<size_t>(hidden));
      for (int64_t j = 0; j < hidden; ++j) w32[static_cast<size_t>(j)] = LoadF32(*w, j);
    }
    GatedGroupJob job;
    job.x = x.data, job.x_dt = x.dtype, job.gate = gate.data, job.g_dt = gate.dtype;
    job.w = w != nullptr ? w32.data() : nullptr;
    job.out = out.data, job.out_dt = out.dtype;
    job.hidden = hidden, job.group = group, job.eps = args.eps, job.exp_tab = VectorExpfTable();
    ParallelForRows(ctx, rows, [&](int64_t r0, int64_t r1) {
      CountTierRun(Isa::kAvx512);
      std::vector<float> v(static_cast<size_t>(hidden));
      avx512::GatedGroupRows(job, r0, r1, v.data());
    });
    return;
  }
#endif
  ParallelForRows(ctx, rows, [&](int64_t r0, int64_t r1) {
    CountTierRun(Isa::kPortable);
    std::vector<float> v(static_cast<size_t>(hidden));
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t base = r * hidden;
      for (int64_t j = 0; j < hidden; ++j) {
        v[static_cast<size_t>(j)] = LoadF32(x, base + j) * SiluF32(LoadF32(gate, base + j));
      }
      if (w == nullptr) {
        for (int64_t j = 0; j < hidden; ++j) {
          StoreF32(out, base + j, RoundThrough(x_dtype, v[static_cast<size_t>(j)]));
        }
        continue;
      }
      for (int64_t g0 = 0; g0 < hidden; g0 += group) {
        float sumsq = 0.0f;
        for (int64_t j = g0; j < g0 + group; ++j) sumsq += v[static_cast<size_t>(j)] * v[static_cast<size_t>(j)];
        const float inv = 1.0f / std::sqrt(sumsq / static_cast<float>(group) + args.eps);
        for (int64_t j = g0; j < g0 + group; ++j) {
          const float normed = RoundThrough(x_dtype, v[static_cast<size_t>(j)] * inv);
          StoreF32(out, base + j, LoadF32(*w, j) * normed);
        }
      }
    }
  });
}

}  // namespace

void Register_rms_norm_gated_group() {
  RegisterTyped<kernel::RmsNormGatedGroupFn>("rms_norm_gated_group", Backend::kCPU,
                                             &RmsNormGatedGroupCpu);
}

}  // namespace vt::cpu
