#include "api/check.h"
#include "api/conv/conv_checks.h"
#include "api/kernel_types.h"
#include "api/state/state_checks.h"
#include "vt/registry.h"

namespace vt {

void GdnStateGather(const ExecContext& ctx, const Tensor& working, const Tensor& cache, const Tensor& state_idx,
                    const Tensor* has_initial_state) {
  const api::Checker c("gdn_state_gather");
  api::CheckStateMove(c, ctx, cache, working, state_idx);
  if (has_initial_state != nullptr) {
    api::CheckMeta(c, ctx, *has_initial_state, "has_initial_state", {DType::kI8, DType::kI32}, working.shape[0]);
  }
  api::CheckNoOverlaps(c, {{&working, "working"}},
                       {{&cache, "cache"}, {&state_idx, "state_idx"}, {has_initial_state, "has_initial_state"}});
  // Repeats are legal here (reads); every index must name a slot.
  api::RequireSlots(c, ctx, state_idx, "state_idx", cache.shape[0], /*allow_null=*/false, /*distinct=*/false);
  GetKernel<kernel::GdnStateGatherFn>("gdn_state_gather", ctx.backend)(ctx, working, cache, state_idx,
                                                                       has_initial_state);
}

}  // namespace vt
