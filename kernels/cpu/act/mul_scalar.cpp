// mul_scalar CPU kernel: out[i] = x[i] * s (s is the f32 value of the scalar).
// Contract: same shape, contiguous. Split: flat elements.
#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void MulScalarCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x, float s) {
  ParallelForRows(ctx, x.Numel(), [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) StoreF32(out, i, LoadF32(x, i) * s);
  });
}

}  // namespace

void Register_mul_scalar() {
  RegisterTyped<kernel::ScalarUnaryFn>("mul_scalar", Backend::kCPU, &MulScalarCpu);
}

}  // namespace vt::cpu
