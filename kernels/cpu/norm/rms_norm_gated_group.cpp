// rms_norm_gated_group CPU kernel (Mamba2 Mixer2RMSNormGated, forward_native):
//   v = x * silu(gate)  (gate promoted to f32 before the silu)
//   no weight:   out = round_through(x.dtype, v)
//   with weight: per group g of size hidden/n_groups,
//                inv = 1 / sqrt(mean_g(v^2) + eps),
//                out = w * round_through(x.dtype, v * inv)
// The weight is read at its own dtype. Contract: x/gate/out contiguous, same
// shape, rank 2 or 3; n_groups divides hidden. Split: rows.
#include <vector>

#include "api/kernel_types.h"
#include "cpu/norm/norm_rows.h"
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
  ParallelForRows(ctx, rows, [&](int64_t r0, int64_t r1) {
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
