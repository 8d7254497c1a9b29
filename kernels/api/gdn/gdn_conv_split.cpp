#include "api/check.h"
#include "api/gdn/gdn_kernel_types.h"
#include "vt/registry.h"

namespace vt {

void GdnConvSplit(const ExecContext& ctx, const Tensor& q_out, const Tensor& k_out, const Tensor& v_out,
                  const Tensor& conv) {
  const api::Checker c("gdn_conv_split");
  c.Operand(ctx, conv, "conv");
  c.Rank(conv, "conv", 2);
  c.DType(conv, "conv", {DType::kF32, DType::kBF16});
  c.Contiguous(conv, "conv");
  c.Operand(ctx, q_out, "q_out");
  c.DType(q_out, "q_out", {DType::kF32, DType::kBF16});
  c.Contiguous(q_out, "q_out");
  c.Operand(ctx, k_out, "k_out");
  c.SameDType(k_out, "k_out", q_out, "q_out");
  c.Contiguous(k_out, "k_out");
  c.Operand(ctx, v_out, "v_out");
  c.SameDType(v_out, "v_out", q_out, "q_out");
  c.Contiguous(v_out, "v_out");
  // The widths are element counts / T: T = 0 leaves them undefined.
  const int64_t t = conv.shape[0];
  c.Require("conv.tokens", t > 0, "conv must have T > 0 rows, got " + conv.Describe());
  c.Require("q_out.per_token", q_out.Numel() % t == 0,
            "q_out element count must be divisible by T = " + std::to_string(t) + ", got " + q_out.Describe());
  c.Require("v_out.per_token", v_out.Numel() % t == 0,
            "v_out element count must be divisible by T = " + std::to_string(t) + ", got " + v_out.Describe());
  c.Require("k_out.key_dim", k_out.Numel() == q_out.Numel(),
            "q_out and k_out must share key_dim (equal element counts), got q_out " + q_out.Describe() +
                ", k_out " + k_out.Describe());
  const int64_t key_dim = q_out.Numel() / t, value_dim = v_out.Numel() / t;
  c.Require("conv.width", conv.shape[1] == 2 * key_dim + value_dim,
            "conv_dim must be 2*key_dim + value_dim = " + std::to_string(2 * key_dim + value_dim) +
                ", got conv " + conv.Describe());
  c.NoOverlap(q_out, "q_out", conv, "conv");
  c.NoOverlap(k_out, "k_out", conv, "conv");
  c.NoOverlap(v_out, "v_out", conv, "conv");
  c.NoOverlap(q_out, "q_out", k_out, "k_out");
  c.NoOverlap(q_out, "q_out", v_out, "v_out");
  c.NoOverlap(k_out, "k_out", v_out, "v_out");
  GetKernel<kernel::GdnConvSplitFn>("gdn_conv_split", ctx.backend)(ctx, q_out, k_out, v_out, conv);
}

}  // namespace vt
