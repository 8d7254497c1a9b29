// rms_norm_gated_quant_fp8 CPU kernel: rms_norm_gated's value rounded to bf16,
// then e4m3(bf16 * (1 / input_scale)). Contract as rms_norm_gated; out_fp8 u8
// contiguous with x's shape. Split: flat rows.
// Tiers: portable (below, the reference) and avx512 (gated_tiers.h: the
// gated tier with a u8 output; the same bytes).
#include <vector>

#include "api/kernel_types.h"
#include "cpu/norm/gated_tiers.h"
#include "cpu/norm/norm_rows.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void RmsNormGatedQuantFp8Cpu(const ExecContext& ctx, const Tensor& out_fp8, const Tensor& x,
                             const Tensor& gate, const Tensor& w, const RmsNormGatedArgs& args,
                             float input_scale) {
  const int64_t d = x.shape[x.rank - 1];
  const int64_t rows = x.Numel() / d;
  const float inv_scale = 1.0f / input_scale;
  static const std::vector<Isa> kTiers = OpTiers("rms_norm_gated_quant_fp8");
  if (PickTier(ctx.ResolvedIsa(), kTiers) == Isa::kAvx512) {
    RunGatedTier(ctx, out_fp8, x, gate, w, args.eps, args.sigmoid_gate, inv_scale);
    return;
  }
  ParallelForRows(ctx, rows, [&](int64_t r0, int64_t r1) {
    CountTierRun(Isa::kPortable);
    for (int64_t i = r0; i < r1; ++i) {
      const float inv = PlainRowInv(x, i * d, d, args.eps, /*mean=*/true);
      const int64_t gbase = GateRowBase(gate, i);
      for (int64_t j = 0; j < d; ++j) {
        const float v = GatedValue(LoadF32(x, i * d + j), inv, LoadF32(w, j),
                                   LoadF32(gate, gbase + j), args.sigmoid_gate);
        StoreU8(out_fp8, i * d + j, F32ToFp8E4M3(BF16ToF32(F32ToBF16(v)) * inv_scale));
      }
    }
  });
}

}  // namespace

void Register_rms_norm_gated_quant_fp8() {
  RegisterTyped<kernel::RmsNormGatedQuantFp8Fn>("rms_norm_gated_quant_fp8", Backend::kCPU,
                                                &RmsNormGatedQuantFp8Cpu);
}

}  // namespace vt::cpu
