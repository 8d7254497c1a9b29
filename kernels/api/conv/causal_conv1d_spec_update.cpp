#include "api/check.h"
#include "api/conv/conv_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void CausalConv1dSpecUpdate(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
                            const Tensor* bias, const Tensor& conv_state, const Tensor& conv_state_indices,
                            const Tensor& num_accepted_tokens, const Tensor& cu_seqlens,
                            const CausalConv1dArgs& args) {
  const api::Checker c("causal_conv1d_spec_update");
  api::CheckConvCommon(c, ctx, out, x, weight, bias, conv_state, /*exact_width=*/false);
  const int64_t k = weight.shape[1];
  c.Require("weight.width_spec", k >= 2,
            "kernel width K = weight.shape[1] must be >= 2 for the speculative update, got " + weight.Describe());
  c.Operand(ctx, cu_seqlens, "cu_seqlens");
  c.Rank(cu_seqlens, "cu_seqlens", 1);
  c.Require("cu_seqlens.requests", cu_seqlens.shape[0] >= 2,
            "cu_seqlens must be [R+1] with R >= 1 requests, got " + cu_seqlens.Describe());
  const int64_t requests = cu_seqlens.shape[0] - 1;
  c.DType(cu_seqlens, "cu_seqlens", {DType::kI32});
  c.Contiguous(cu_seqlens, "cu_seqlens");
  api::CheckMeta(c, ctx, conv_state_indices, "conv_state_indices", {DType::kI32}, requests);
  api::CheckMeta(c, ctx, num_accepted_tokens, "num_accepted_tokens", {DType::kI32}, requests);
  api::CheckConvNoOverlaps(c, out, x, weight, bias, conv_state,
                           {{&conv_state_indices, "conv_state_indices"},
                            {&num_accepted_tokens, "num_accepted_tokens"},
                            {&cu_seqlens, "cu_seqlens"}});
  // The row holds the widened window: (K-1) + (max_query_len - 1) taps.
  const int64_t max_query_len = conv_state.shape[2] - (k - 1) + 1;
  api::RequireCumulative(c, ctx, cu_seqlens, "cu_seqlens", x.shape[0], max_query_len, "T = x.shape[0]");
  const api::HostValues accepted(ctx, num_accepted_tokens);  // the values, readable on the host
  int64_t bad = -1;
  for (int64_t r = 0; r < requests && bad < 0; ++r) {
    const int64_t a = api::MetaAt(*accepted, r);
    if (a < 1 || a > max_query_len) bad = r;
  }
  c.Require("num_accepted_tokens.range", bad < 0,
            bad < 0 ? std::string()
                    : "num_accepted_tokens[" + std::to_string(bad) + "] = " +
                          std::to_string(api::MetaAt(*accepted, bad)) + " is outside [1, max_query_len = " +
                          std::to_string(max_query_len) + "]");
  api::RequireSlots(c, ctx, conv_state_indices, "conv_state_indices", conv_state.shape[0], /*allow_null=*/true,
                    /*distinct=*/true);
  GetKernel<kernel::CausalConv1dSpecUpdateFn>("causal_conv1d_spec_update", ctx.backend)(
      ctx, out, x, weight, bias, conv_state, conv_state_indices, num_accepted_tokens, cu_seqlens, args);
}

}  // namespace vt
