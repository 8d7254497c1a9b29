// moe_relu2 CPU kernel: out[i] = max(x[i], 0)^2 (NemotronH expert epilogue).
// Widen to f32, clamp in f32, square in f32, round once at the store: a bf16
// input with an f32 output keeps the full f32 square.
// Contract: equal element counts, contiguous. Split: flat elements.
#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void MoeRelu2Cpu(const ExecContext& ctx, const Tensor& out, const Tensor& x) {
  ParallelForRows(ctx, out.Numel(), [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) {
      const float f = LoadF32(x, i);
      const float v = f > 0.0f ? f : 0.0f;
      StoreF32(out, i, v * v);
    }
  });
}

}  // namespace

void Register_moe_relu2() { RegisterTyped<kernel::UnaryFn>("moe_relu2", Backend::kCPU, &MoeRelu2Cpu); }

}  // namespace vt::cpu
