// silu_and_mul CPU kernel: out[t,j] = silu(x[t,j]) * x[t,D+j],
// silu(g) = g / (1 + exp(-g)), f32, one rounding at the store.
// Contract: x [T,2D], out [T,D], contiguous. Split: rows.
#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void SiluAndMulCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x) {
  const int64_t d = out.shape[1];
  ParallelForRows(ctx, out.shape[0], [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) {
      for (int64_t j = 0; j < d; ++j) {
        const float gate = LoadF32(x, i * 2 * d + j);
        const float up = LoadF32(x, i * 2 * d + d + j);
        StoreF32(out, i * d + j, SiluF32(gate) * up);
      }
    }
  });
}

}  // namespace

void Register_silu_and_mul() {
  RegisterTyped<kernel::UnaryFn>("silu_and_mul", Backend::kCPU, &SiluAndMulCpu);
}

}  // namespace vt::cpu
