// rms_norm_quant_fp8 CPU kernel: rms_norm's row math, the normed value rounded
// to bf16 (the split path's bf16 store), then e4m3(bf16 * (1 / input_scale))
// (the split path's static quant of that bf16 load). Contract: as rms_norm;
// out_fp8 (u8) and optional out_bf16 contiguous [T,H]. Split: output rows.
#include "api/kernel_types.h"
#include "cpu/norm/norm_rows.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void RmsNormQuantFp8Cpu(const ExecContext& ctx, const Tensor& out_fp8, const Tensor* out_bf16,
                        const Tensor& x, const Tensor& w, const RmsNormArgs& args,
                        const Tensor* residual, float input_scale) {
  const int64_t rows = x.shape[0], h = x.shape[1];
  const float inv_scale = 1.0f / input_scale;  // one reciprocal, then multiply
  ParallelForRows(ctx, rows, [&](int64_t r0, int64_t r1) {
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
