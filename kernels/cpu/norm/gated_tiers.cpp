// Dispatch of the gated-norm tier (rms_norm_gated and its fp8 variant; portable code: the tier body lives in
// gated_rows_avx512.cpp).
#include "cpu/norm/gated_tiers.h"

#include <vector>

#include "cpu/access.h"
#include "cpu/act/silu_tiers.h"
#include "cpu/norm/norm_tiers.h"
#include "cpu/simd/target.h"
#include "vt/threadpool.h"

namespace vt::cpu {

void RunGatedTier(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& gate, const Tensor& w,
                  float eps, bool sigmoid, float inv_scale) {
#if VT_X86_TIERS
  const int64_t d = x.shape[x.rank - 1];
  const int64_t rows = x.Numel() / d;
  std::vector<float> w32(static_cast<std::size_t>(d));  // widening f16/bf16 to f32 is exact
  for (int64_t j = 0; j < d; ++j) w32[static_cast<std::size_t>(j)] = LoadF32(w, j);
  GatedRowsJob job;
  job.x = x.data, job.x_dt = x.dtype;
  job.gate = gate.data, job.g_dt = gate.dtype;
  job.g_heads = gate.rank == 3 ? gate.shape[1] : 1;  // rank 3: head stride D (validated)
  job.g_tok_stride = gate.stride[0];
  job.w = w32.data();
  job.out = out.data, job.out_dt = out.dtype, job.inv_scale = inv_scale;
  job.d = d, job.eps = eps, job.sigmoid = sigmoid;
  job.stream_out = out.dtype != DType::kU8 && out.Numel() * static_cast<int64_t>(SizeOf(out.dtype)) >= kStreamOutBytes;
  job.exp_tab = VectorExpfTable();
  const int lanes = avx512::kLanes;
  const int64_t panels = (rows + lanes - 1) / lanes;
  ParallelForRows(ctx, panels, [&](int64_t p0, int64_t p1) {
    CountTierRun(Isa::kAvx512);
    for (int64_t p = p0; p < p1; ++p) {
      const int64_t r0 = p * lanes;
      avx512::GatedPanel(job, r0, static_cast<int>(rows - r0 < lanes ? rows - r0 : lanes));
    }
  });
#else
  // unreachable: no x86 tier is supported here
  (void)ctx, (void)out, (void)x, (void)gate, (void)w, (void)eps, (void)sigmoid, (void)inv_scale;
#endif
}

}  // namespace vt::cpu
