// sigmoid_gate_bf16 CPU kernel: out[i] = bf16(attn[i] * sigmoid(gate[i])),
// sigmoid(z) = 1 / (1 + exp(-z)) in f32. Contract: equal counts, contiguous,
// out bf16, gate f32. Split: flat elements.
#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void SigmoidGateBf16Cpu(const ExecContext& ctx, const Tensor& out, const Tensor& attn,
                        const Tensor& gate) {
  ParallelForRows(ctx, out.Numel(), [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) StoreF32(out, i, LoadF32(attn, i) * SigmoidF32(LoadF32(gate, i)));
  });
}

}  // namespace

void Register_sigmoid_gate_bf16() {
  RegisterTyped<kernel::BinaryFn>("sigmoid_gate_bf16", Backend::kCPU, &SigmoidGateBf16Cpu);
}

}  // namespace vt::cpu
