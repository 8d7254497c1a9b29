// shared_expert_gate CPU kernel: out[t,c] = bf16(sigmoid(gl[t]) * sd[t*H + c]).
// Contract: out [T,H] bf16; sd T*H elements; gl T elements; contiguous.
// Split: rows t (the row's gate is computed once).
#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void SharedExpertGateCpu(const ExecContext& ctx, const Tensor& out, const Tensor& sd,
                         const Tensor& gl) {
  const int64_t h = out.shape[1];
  ParallelForRows(ctx, out.shape[0], [&](int64_t r0, int64_t r1) {
    for (int64_t t = r0; t < r1; ++t) {
      const float g = SigmoidF32(LoadF32(gl, t));
      for (int64_t c = 0; c < h; ++c) StoreF32(out, t * h + c, g * LoadF32(sd, t * h + c));
    }
  });
}

}  // namespace

void Register_shared_expert_gate() {
  RegisterTyped<kernel::BinaryFn>("shared_expert_gate", Backend::kCPU, &SharedExpertGateCpu);
}

}  // namespace vt::cpu
