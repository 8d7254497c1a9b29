#include "api/check.h"
#include "api/gdn/gdn_gate_checks.h"
#include "api/gdn/gdn_kernel_types.h"
#include "vt/registry.h"

namespace vt {

void GdnGBeta(const ExecContext& ctx, const Tensor& g_out, const Tensor& beta_out, const Tensor& a,
              const Tensor& b, const Tensor& a_log, const Tensor& dt_bias) {
  const api::Checker c("gdn_g_beta");
  c.Operand(ctx, g_out, "g_out");
  c.Rank(g_out, "g_out", 2);
  c.Require("g_out.heads", g_out.shape[1] > 0, "Hv = g_out's last dim must be > 0, got " + g_out.Describe());
  api::CheckGdnGate(c, ctx, g_out, beta_out, a, b, a_log, dt_bias, {});
  GetKernel<kernel::GdnGBetaFn>("gdn_g_beta", ctx.backend)(ctx, g_out, beta_out, a, b, a_log, dt_bias);
}

}  // namespace vt
