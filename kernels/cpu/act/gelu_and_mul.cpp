// gelu_and_mul CPU kernel (Gemma GeGLU, tanh approximation, all f32):
//   inner = sqrt(2/pi) * (g + 0.044715 * g^3);  out = (0.5 * g) * (1 + tanh(inner)) * up
// Contract: x [T,2D], out [T,D], contiguous. Split: rows. Tiers: portable
// (below, the reference: GeluMulF32 in gelu_tiers.h) and avx2 / avx512
// (gelu_tiers.h: a vector transcription of glibc's tanhf, self-checked at
// start-up; the same bytes).
#include "api/kernel_types.h"
#include "cpu/access.h"
#include "cpu/act/gelu_tiers.h"
#include "cpu/act/glu_rows.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void GeluAndMulCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x) {
  const int64_t d = out.shape[1];
  static const std::vector<Isa> kTiers = OpTiers("gelu_and_mul");
  const Isa tier = PickTier(ctx.ResolvedIsa(), kTiers);
  if (tier != Isa::kPortable) {
    GeluJob job;
    job.x_dt = x.dtype, job.out_dt = out.dtype, job.vector_tanh = VectorTanhfAgrees(tier);
    job.stream_out = GluStreamsOut(out);
    GluTierRows(ctx, tier, out, x, [&](const void* g, const void* u, void* o, int64_t n) {
      GeluMulSpanOn(tier, job, g, u, o, n);
    });
    return;
  }
  ParallelForRows(ctx, out.shape[0], [&](int64_t r0, int64_t r1) {
    CountTierRun(Isa::kPortable);
    for (int64_t i = r0; i < r1; ++i) {
      for (int64_t j = 0; j < d; ++j) {
        const float g = LoadF32(x, i * 2 * d + j);
        const float up = LoadF32(x, i * 2 * d + d + j);
        StoreF32(out, i * d + j, GeluMulF32(g, up));
      }
    }
  });
}

}  // namespace

void Register_gelu_and_mul() {
  RegisterTyped<kernel::UnaryFn>("gelu_and_mul", Backend::kCPU, &GeluAndMulCpu);
}

}  // namespace vt::cpu
