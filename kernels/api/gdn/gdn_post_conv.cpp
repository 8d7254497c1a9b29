#include "api/check.h"
#include "api/gdn/gdn_gate_checks.h"
#include "api/gdn/gdn_kernel_types.h"
#include "vt/registry.h"

namespace vt {

void GdnPostConv(const ExecContext& ctx, const Tensor& q_out, const Tensor& k_out, const Tensor& v_out,
                 const Tensor& g_out, const Tensor& beta_out, const Tensor& conv, const Tensor& a,
                 const Tensor& b, const Tensor& a_log, const Tensor& dt_bias, const L2NormArgs& args) {
  const api::Checker c("gdn_post_conv");
  c.Operand(ctx, conv, "conv");
  c.Rank(conv, "conv", 2);
  c.DType(conv, "conv", {DType::kF32, DType::kBF16});
  c.Contiguous(conv, "conv");
  const int64_t t = conv.shape[0];
  c.Require("conv.tokens", t > 0, "conv must have T > 0 rows, got " + conv.Describe());
  c.Operand(ctx, q_out, "q_out");
  c.Rank(q_out, "q_out", 3);
  c.DType(q_out, "q_out", {DType::kF32, DType::kBF16});
  c.Contiguous(q_out, "q_out");
  const int64_t hk = q_out.shape[1], dk = q_out.shape[2];
  c.Require("q_out.tokens", q_out.shape[0] == t, "q_out must have conv's T = " + std::to_string(t) + " rows, got " + q_out.Describe());
  c.Require("q_out.head_dim", dk > 0, "Dk = q_out.shape[2] must be > 0 (the l2 norm's extent), got " + q_out.Describe());
  c.Operand(ctx, k_out, "k_out");
  c.SameDType(k_out, "k_out", q_out, "q_out");
  c.Shape(k_out, "k_out", {t, hk, dk});
  c.Contiguous(k_out, "k_out");
  c.Operand(ctx, v_out, "v_out");
  c.SameDType(v_out, "v_out", q_out, "q_out");
  c.Rank(v_out, "v_out", 3);
  c.Contiguous(v_out, "v_out");
  const int64_t hv = v_out.shape[1], dv = v_out.shape[2];
  c.Require("v_out.tokens", v_out.shape[0] == t, "v_out must have conv's T = " + std::to_string(t) + " rows, got " + v_out.Describe());
  c.Require("v_out.heads", hv > 0, "Hv = v_out.shape[1] must be > 0 (g/beta are [T, Hv]), got " + v_out.Describe());
  c.Require("conv.width", conv.shape[1] == 2 * hk * dk + hv * dv,
            "conv must be [T, 2*Hk*Dk + Hv*Dv] = [T, " + std::to_string(2 * hk * dk + hv * dv) + "], got " +
                conv.Describe());
  c.Operand(ctx, g_out, "g_out");
  c.Shape(g_out, "g_out", {t, hv});
  api::CheckGdnGate(c, ctx, g_out, beta_out, a, b, a_log, dt_bias,
                    {{"q_out", &q_out}, {"k_out", &k_out}, {"v_out", &v_out}, {"conv", &conv}});
  c.PositiveFinite(args.eps, "eps");
  const std::pair<const char*, const Tensor*> outs[] = {{"q_out", &q_out}, {"k_out", &k_out}, {"v_out", &v_out}};
  for (const auto& [name, o] : outs) c.NoOverlap(*o, name, conv, "conv");
  for (const auto& [name, o] : outs) {
    c.NoOverlap(*o, name, a, "a");
    c.NoOverlap(*o, name, b, "b");
    c.NoOverlap(*o, name, a_log, "a_log");
    c.NoOverlap(*o, name, dt_bias, "dt_bias");
  }
  c.NoOverlap(q_out, "q_out", k_out, "k_out");
  c.NoOverlap(q_out, "q_out", v_out, "v_out");
  c.NoOverlap(k_out, "k_out", v_out, "v_out");
  GetKernel<kernel::GdnPostConvFn>("gdn_post_conv", ctx.backend)(ctx, q_out, k_out, v_out, g_out, beta_out, conv,
                                                                 a, b, a_log, dt_bias, args);
}

}  // namespace vt
