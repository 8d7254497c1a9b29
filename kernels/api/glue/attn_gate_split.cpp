#include <cstdint>

#include "api/check.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void AttnGateSplit(const ExecContext& ctx, const Tensor& q_out, const Tensor& gate_out,
                   const Tensor& qgate) {
  const api::Checker c("attn_gate_split");
  c.Operand(ctx, qgate, "qgate");
  c.Rank(qgate, "qgate", 2);
  c.DType(qgate, "qgate", {DType::kF32, DType::kBF16});
  c.Contiguous(qgate, "qgate");
  c.Operand(ctx, q_out, "q_out");
  c.Rank(q_out, "q_out", 3);
  c.DType(q_out, "q_out", {DType::kF32, DType::kBF16});
  c.Contiguous(q_out, "q_out");
  c.Operand(ctx, gate_out, "gate_out");
  // The gate feeds a sigmoid in f32 downstream: it stays f32 (op-contracts 3.4).
  c.DType(gate_out, "gate_out", {DType::kF32});
  c.SameShape(gate_out, "gate_out", q_out, "q_out");
  c.Contiguous(gate_out, "gate_out");
  // Hq*2*Dh may overflow when T == 0 (q_out's count is then 0 whatever the
  // other extents): an overflowing width matches no qgate.
  int64_t width = 0;
  const bool fits = q_out.shape[2] <= INT64_MAX / 2 &&
                    !__builtin_mul_overflow(q_out.shape[1], 2 * q_out.shape[2], &width);
  c.Shape(qgate, "qgate", {q_out.shape[0], fits ? width : -1});
  c.NoOverlap(q_out, "q_out", qgate, "qgate");
  c.NoOverlap(gate_out, "gate_out", qgate, "qgate");
  c.NoOverlap(q_out, "q_out", gate_out, "gate_out");
  GetKernel<kernel::AttnGateSplitFn>("attn_gate_split", ctx.backend)(ctx, q_out, gate_out, qgate);
}

}  // namespace vt
