#include "api/check.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void QkvSplit(const ExecContext& ctx, const Tensor& q_out, const Tensor& k_out, const Tensor& v_out,
              const Tensor& qkv) {
  const api::Checker c("qkv_split");
  c.Operand(ctx, qkv, "qkv");
  c.Rank(qkv, "qkv", 2);
  c.DType(qkv, "qkv", {DType::kF32, DType::kBF16});
  c.Contiguous(qkv, "qkv");
  const Tensor* parts[] = {&q_out, &k_out, &v_out};
  const char* names[] = {"q_out", "k_out", "v_out"};
  for (int i = 0; i < 3; ++i) {
    c.Operand(ctx, *parts[i], names[i]);
    c.SameDType(*parts[i], names[i], qkv, "qkv");
    c.Contiguous(*parts[i], names[i]);
  }
  // The per-token widths are element counts / T: T = 0 leaves them undefined.
  const int64_t t = qkv.shape[0];
  c.Require("qkv.tokens", t > 0, "qkv must have T > 0 rows, got " + qkv.Describe());
  c.Require("q_out.per_token", q_out.Numel() % t == 0,
            "q_out element count must be divisible by T = " + std::to_string(t) + ", got " + q_out.Describe());
  c.Require("k_out.per_token", k_out.Numel() % t == 0,
            "k_out element count must be divisible by T = " + std::to_string(t) + ", got " + k_out.Describe());
  c.Require("v_out.per_token", v_out.Numel() % t == 0,
            "v_out element count must be divisible by T = " + std::to_string(t) + ", got " + v_out.Describe());
  const int64_t width = q_out.Numel() / t + k_out.Numel() / t + v_out.Numel() / t;  // each <= numel: no overflow
  c.Require("qkv.width", qkv.shape[1] == width,
            "qkv inner dim must be q_dim + k_dim + v_dim = " + std::to_string(width) + ", got " +
                qkv.Describe());
  for (int i = 0; i < 3; ++i) c.NoOverlap(*parts[i], names[i], qkv, "qkv");
  c.NoOverlap(q_out, "q_out", k_out, "k_out");
  c.NoOverlap(q_out, "q_out", v_out, "v_out");
  c.NoOverlap(k_out, "k_out", v_out, "v_out");
  GetKernel<kernel::QkvSplitFn>("qkv_split", ctx.backend)(ctx, q_out, k_out, v_out, qkv);
}

}  // namespace vt
