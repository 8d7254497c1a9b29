// mul_col_vec_f32 CPU kernel, IN PLACE: x[m,n] *= col[n]. One f32 multiply per
// element; an f32 x stores it as is, a bf16 x rounds it (ties to even).
// Contract: x [M,N] f32/bf16 with unit inner stride and row stride >= N;
// col [N] f32. Split: rows; each row is read and written by one thread.
// Tiers: portable (below), avx2 and avx512 (scale_tiers.h, the same bytes).
#include "api/kernel_types.h"
#include "cpu/access.h"
#include "cpu/act/scale_tiers.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void MulColVecF32Cpu(const ExecContext& ctx, const Tensor& x, const Tensor& col) {
  const int64_t n = x.shape[1], row_stride = x.stride[0];
  static const std::vector<Isa> kTiers = OpTiers("mul_col_vec_f32");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);
  if (tier != Isa::kPortable) {
    ScaleJob job;
    job.x_dt = x.dtype, job.out_dt = x.dtype, job.col = static_cast<const float*>(col.data);
    auto* xb = static_cast<unsigned char*>(x.data);
    ParallelForRows(ctx, x.shape[0], [&](int64_t r0, int64_t r1) {
      CountTierRun(tier);
      for (int64_t i = r0; i < r1; ++i) {
        unsigned char* row = xb + i * row_stride * static_cast<int64_t>(x.ElementSize());
        ScaleSpanOn(tier, job, row, row, n);
      }
    });
    return;
  }
  ParallelForRows(ctx, x.shape[0], [&](int64_t r0, int64_t r1) {
    CountTierRun(Isa::kPortable);
    for (int64_t i = r0; i < r1; ++i) {
      const int64_t base = i * row_stride;
      for (int64_t j = 0; j < n; ++j) StoreF32(x, base + j, LoadF32(x, base + j) * LoadF32(col, j));
    }
  });
}

}  // namespace

void Register_mul_col_vec_f32() {
  RegisterTyped<kernel::InPlaceColFn>("mul_col_vec_f32", Backend::kCPU, &MulColVecF32Cpu);
}

}  // namespace vt::cpu
