#include "api/check.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void SigmoidGateBf16(const ExecContext& ctx, const Tensor& out, const Tensor& attn,
                     const Tensor& gate) {
  const api::Checker c("sigmoid_gate_bf16");
  c.Operand(ctx, attn, "attn");
  c.DType(attn, "attn", {DType::kF32, DType::kBF16});
  c.Contiguous(attn, "attn");
  c.Operand(ctx, gate, "gate");
  c.DType(gate, "gate", {DType::kF32});  // the sigmoid input is never pre-rounded
  c.Contiguous(gate, "gate");
  c.Operand(ctx, out, "out");
  c.DType(out, "out", {DType::kBF16});
  c.Contiguous(out, "out");
  c.SameNumel(attn, "attn", out, "out");
  c.SameNumel(gate, "gate", out, "out");
  c.NoOverlap(out, "out", attn, "attn");
  c.NoOverlap(out, "out", gate, "gate");
  GetKernel<kernel::BinaryFn>("sigmoid_gate_bf16", ctx.backend)(ctx, out, attn, gate);
}

}  // namespace vt
