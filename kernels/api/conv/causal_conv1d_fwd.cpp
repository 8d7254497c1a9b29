#include "api/check.h"
#include "api/conv/conv_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void CausalConv1dFwd(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
                     const Tensor* bias, const Tensor& conv_state, const Tensor& query_start_loc,
                     const Tensor& has_initial_state, const CausalConv1dArgs& args) {
  const api::Checker c("causal_conv1d_fwd");
  api::CheckConvCommon(c, ctx, out, x, weight, bias, conv_state, /*exact_width=*/true);
  const int64_t n = conv_state.shape[0];
  api::CheckMeta(c, ctx, query_start_loc, "query_start_loc", {DType::kI32}, n + 1);
  api::CheckMeta(c, ctx, has_initial_state, "has_initial_state", {DType::kI8, DType::kI32}, n);
  api::CheckConvNoOverlaps(c, out, x, weight, bias, conv_state,
                           {{&query_start_loc, "query_start_loc"}, {&has_initial_state, "has_initial_state"}});
  // The seed checked these inside the kernel; here they come before any write.
  api::RequireCumulative(c, ctx, query_start_loc, "query_start_loc", x.shape[0], -1, "T = x.shape[0]");
  GetKernel<kernel::CausalConv1dFwdFn>("causal_conv1d_fwd", ctx.backend)(ctx, out, x, weight, bias, conv_state,
                                                                         query_start_loc, has_initial_state, args);
}

}  // namespace vt
