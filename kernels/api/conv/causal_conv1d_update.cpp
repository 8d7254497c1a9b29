#include "api/check.h"
#include "api/conv/conv_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void CausalConv1dUpdate(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
                        const Tensor* bias, const Tensor& conv_state, const Tensor* conv_state_indices,
                        const CausalConv1dArgs& args) {
  const api::Checker c("causal_conv1d_update");
  api::CheckConvCommon(c, ctx, out, x, weight, bias, conv_state, /*exact_width=*/false);
  const int64_t batch = x.shape[0], slots = conv_state.shape[0];
  if (conv_state_indices == nullptr) {
    c.Require("conv_state.rows", slots == batch,
              "one conv_state row per token required without conv_state_indices: conv_state.shape[0] = " +
                  std::to_string(slots) + ", batch = " + std::to_string(batch));
  } else {
    api::CheckMeta(c, ctx, *conv_state_indices, "conv_state_indices", {DType::kI32}, batch);
    c.Require("conv_state.rows_indexed", slots >= batch,
              "indexed conv_state cache must have >= batch rows: conv_state.shape[0] = " + std::to_string(slots) +
                  ", batch = " + std::to_string(batch));
  }
  api::CheckConvNoOverlaps(c, out, x, weight, bias, conv_state, {{conv_state_indices, "conv_state_indices"}});
  if (conv_state_indices != nullptr) {
    api::RequireSlots(c, ctx, *conv_state_indices, "conv_state_indices", slots, /*allow_null=*/true, /*distinct=*/true);
  }
  GetKernel<kernel::CausalConv1dUpdateFn>("causal_conv1d_update", ctx.backend)(ctx, out, x, weight, bias, conv_state,
                                                                               conv_state_indices, args);
}

}  // namespace vt
