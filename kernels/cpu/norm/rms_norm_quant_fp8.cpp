// rms_norm_quant_fp8 CPU kernel: rms_norm's row math, the normed value rounded
// to bf16 (the split path's bf16 store), then e4m3(bf16 * (1 / input_scale))
// (the split path's static quant of that bf16 load). Contract: as rms_norm;
// out_fp8 (u8) and optional out_bf16 contiguous [T,H]. Split: output rows.
// Tiers: portable (below, the reference), avx2 and avx512: the row-norm
// panel (norm_tiers.h) writes each panel's bf16 values (into out_bf16, or a
// per-thread scratch of one panel), then the codes are encoded from them:
// avx512 with the gated tier's vector e4m3 encode (gated_tiers.h), avx2 with
// the quantizer tiers' scalar integer encode (cpu/quant/fp4_scale_code.h);
// both the codec's byte for every f32. The same bytes.
#include <vector>

#include "api/kernel_types.h"
#include "cpu/norm/gated_tiers.h"
#include "cpu/norm/norm_rows.h"
#include "cpu/norm/norm_tiers.h"
#include "cpu/quant/fp4_scale_code.h"
#include "cpu/simd/target.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

// codes[k] = e4m3(bf16[k] * inv_scale), k < n.
void EncodeFromBf16(const uint16_t* bf16, uint8_t* codes, int64_t n, float inv_scale) {
  for (int64_t k = 0; k < n; ++k) {
    const float q = BF16ToF32(bf16[k]) * inv_scale;
    uint32_t bits;
    std::memcpy(&bits, &q, 4);
    codes[k] = fp4::ScaleCodeFromBits(bits, q);
  }
}

void RunTier(const ExecContext& ctx, Isa tier, const Tensor& out_fp8, const Tensor* out_bf16, const Tensor& x,
             const Tensor& w, const RmsNormArgs& args, const Tensor* residual, float inv_scale) {
#if VT_X86_TIERS
  const int64_t rows = x.shape[0], h = x.shape[1];
  const int lanes = tier == Isa::kAvx512 ? avx512::kLanes : avx2::kLanes;
  const int64_t panels = (rows + lanes - 1) / lanes;
  const auto xe = static_cast<int64_t>(SizeOf(x.dtype));
  ParallelForRows(ctx, panels, [&](int64_t p0, int64_t p1) {
    CountTierRun(tier);
    std::vector<uint16_t> scratch(out_bf16 == nullptr ? static_cast<std::size_t>(lanes * h) : 0);
    for (int64_t p = p0; p < p1; ++p) {
      const int64_t r0 = p * lanes;
      const int nr = static_cast<int>(rows - r0 < lanes ? rows - r0 : lanes);
      // The panel's rows as a job of their own (row 0 = row r0), its bf16
      // values written where the codes are read from.
      NormRowsJob job;
      job.x = static_cast<const unsigned char*>(x.data) + r0 * h * xe, job.x_dt = x.dtype;
      if (residual != nullptr) {
        job.residual = static_cast<unsigned char*>(residual->data) + r0 * h * SizeOf(residual->dtype);
        job.res_dt = residual->dtype;
      }
      uint16_t* bf = out_bf16 != nullptr ? static_cast<uint16_t*>(out_bf16->data) + r0 * h : scratch.data();
      job.out = bf, job.out_dt = DType::kBF16;
      job.w = w.data, job.w_dt = w.dtype, job.gemma = args.gemma;
      job.h = h, job.eps = args.eps, job.mean = true;
      float inv[avx512::kLanes];
      if (tier == Isa::kAvx512) {
        avx512::NormPanel(job, 0, nr, inv);
      } else {
        avx2::NormPanel(job, 0, nr, inv);
      }
      uint8_t* codes = static_cast<uint8_t*>(out_fp8.data) + r0 * h;
      if (tier == Isa::kAvx512) {
        avx512::Fp8CodesFromBf16(bf, inv_scale, codes, nr * h);
      } else {
        EncodeFromBf16(bf, codes, nr * h, inv_scale);
      }
    }
  });
#else
  (void)ctx, (void)tier, (void)out_fp8, (void)out_bf16, (void)x, (void)w, (void)args, (void)residual, (void)inv_scale;
#endif
}

void RmsNormQuantFp8Cpu(const ExecContext& ctx, const Tensor& out_fp8, const Tensor* out_bf16,
                        const Tensor& x, const Tensor& w, const RmsNormArgs& args,
                        const Tensor* residual, float input_scale) {
  const int64_t rows = x.shape[0], h = x.shape[1];
  const float inv_scale = 1.0f / input_scale;  // one reciprocal, then multiply
  static const std::vector<Isa> kTiers = OpTiers("rms_norm_quant_fp8");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);
  if (tier != Isa::kPortable) {
    RunTier(ctx, tier, out_fp8, out_bf16, x, w, args, residual, inv_scale);
    return;
  }
  ParallelForRows(ctx, rows, [&](int64_t r0, int64_t r1) {
    CountTierRun(Isa::kPortable);
    for (int64_t i = r0; i < r1; ++i) {
      const int64_t base = i * h;
      const float inv = RmsRowInv(x, residual, base, h, args.eps);
      for (int64_t j = 0; j < h; ++j) {
        const float normed = RmsRowValue(x, residual, base + j) * inv * RmsWeight(w, j, args.gemma);
        const uint16_t b = F32ToBF16(normed);
        if (out_bf16 != nullptr) std::memcpy(static_cast<uint16_t*>(out_bf16->data) + base + j, &b, 2);
        StoreU8(out_fp8, base + j, F32ToFp8E4M3(BF16ToF32(b) * inv_scale));
      }
    }
  });
}

}  // namespace

void Register_rms_norm_quant_fp8() {
  RegisterTyped<kernel::RmsNormQuantFp8Fn>("rms_norm_quant_fp8", Backend::kCPU, &RmsNormQuantFp8Cpu);
}

}  // namespace vt::cpu
