// soft_cap CPU kernel: out[i] = cap * tanh(x[i] / cap), a true division as in
// torch's div_/tanh_/mul_ chain (Gemma-2 final logit soft-cap), all f32.
// Contract: same shape, contiguous, cap > 0. Split: flat elements.
#include <cmath>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void SoftCapCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x, float cap) {
  ParallelForRows(ctx, x.Numel(), [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) StoreF32(out, i, cap * std::tanh(LoadF32(x, i) / cap));
  });
}

}  // namespace

void Register_soft_cap() {
  RegisterTyped<kernel::ScalarUnaryFn>("soft_cap", Backend::kCPU, &SoftCapCpu);
}

}  // namespace vt::cpu
