// rms_norm_gated CPU kernel (norm before gate, no groups):
//   out = ((x * inv) * w) * act(gate),  inv = 1 / sqrt(mean(x^2) + eps).
// Contract: x/out contiguous [rows,D] or [T,Hv,D]; gate the same shape with a
// possibly padded token stride (GateRowBase). Split: flat rows.
// Tiers: portable (below, the reference) and avx512 (gated_tiers.h: the
// row-norm panel's sums and the silu tier's vector expf; the same bytes).
#include <vector>

#include "api/kernel_types.h"
#include "cpu/norm/gated_tiers.h"
#include "cpu/norm/norm_rows.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void RmsNormGatedCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& gate,
                     const Tensor& w, const RmsNormGatedArgs& args) {
  const int64_t d = x.shape[x.rank - 1];
  const int64_t rows = x.Numel() / d;
  static const std::vector<Isa> kTiers = OpTiers("rms_norm_gated");
  if (PickTier(ctx.ResolvedIsa(), kTiers) == Isa::kAvx512) {
    RunGatedTier(ctx, out, x, gate, w, args.eps, args.sigmoid_gate, 1.0f);
    return;
  }
  ParallelForRows(ctx, rows, [&](int64_t r0, int64_t r1) {
    CountTierRun(Isa::kPortable);
    for (int64_t i = r0; i < r1; ++i) {
      const float inv = PlainRowInv(x, i * d, d, args.eps, /*mean=*/true);
      const int64_t gbase = GateRowBase(gate, i);
      for (int64_t j = 0; j < d; ++j) {
        StoreF32(out, i * d + j,
                 GatedValue(LoadF32(x, i * d + j), inv, LoadF32(w, j), LoadF32(gate, gbase + j),
                            args.sigmoid_gate));
      }
    }
  });
}

}  // namespace

void Register_rms_norm_gated() {
  RegisterTyped<kernel::RmsNormGatedFn>("rms_norm_gated", Backend::kCPU, &RmsNormGatedCpu);
}

}  // namespace vt::cpu
