#include "api/check.h"
#include "api/gdn/kda_checks.h"
#include "api/gdn/gdn_kernel_types.h"
#include "vt/registry.h"

namespace vt {

void KdaGatedDeltaRule(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
                       const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                       const Tensor& query_start_loc, const KdaArgs& args) {
  const api::Checker c("kda_gated_delta_rule");
  api::CheckKda(c, ctx, out, q, k, v, g, "g", beta, state, query_start_loc, args);
  GetKernel<kernel::KdaGatedDeltaRuleFn>("kda_gated_delta_rule", ctx.backend)(ctx, out, q, k, v, g, beta, state,
                                                                              query_start_loc, args);
}

}  // namespace vt
