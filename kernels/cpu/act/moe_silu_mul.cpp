// moe_silu_mul CPU kernel: out[i] = silu(gate[i]) * up[i], flat elementwise.
// Contract: equal element counts, contiguous. Split: flat elements.
#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void MoeSiluMulCpu(const ExecContext& ctx, const Tensor& out, const Tensor& gate, const Tensor& up) {
  ParallelForRows(ctx, out.Numel(), [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) StoreF32(out, i, SiluF32(LoadF32(gate, i)) * LoadF32(up, i));
  });
}

}  // namespace

void Register_moe_silu_mul() {
  RegisterTyped<kernel::BinaryFn>("moe_silu_mul", Backend::kCPU, &MoeSiluMulCpu);
}

}  // namespace vt::cpu
