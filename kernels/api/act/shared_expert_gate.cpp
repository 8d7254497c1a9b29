#include "api/check.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void SharedExpertGate(const ExecContext& ctx, const Tensor& out, const Tensor& sd,
                      const Tensor& gl) {
  const api::Checker c("shared_expert_gate");
  c.Operand(ctx, out, "out");
  c.Rank(out, "out", 2);
  c.DType(out, "out", {DType::kBF16});
  c.Contiguous(out, "out");
  const int64_t t = out.shape[0], h = out.shape[1];
  c.Operand(ctx, sd, "sd");
  c.DType(sd, "sd", {DType::kF32, DType::kBF16});
  c.Contiguous(sd, "sd");
  c.SameNumel(sd, "sd", out, "out");
  c.Operand(ctx, gl, "gl");
  c.DType(gl, "gl", {DType::kF32});
  c.Contiguous(gl, "gl");
  c.Require("shape(gl)", (gl.rank == 1 && gl.shape[0] == t) ||
                (gl.rank == 2 && gl.shape[0] == t && gl.shape[1] == 1),
            "gl must be [T] or [T,1] with T = " + std::to_string(t) + ", got " + gl.Describe());
  (void)h;
  c.NoOverlap(out, "out", sd, "sd");
  c.NoOverlap(out, "out", gl, "gl");
  GetKernel<kernel::BinaryFn>("shared_expert_gate", ctx.backend)(ctx, out, sd, gl);
}

}  // namespace vt
