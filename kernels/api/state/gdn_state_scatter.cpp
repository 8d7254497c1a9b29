#include "api/check.h"
#include "api/conv/conv_checks.h"
#include "api/kernel_types.h"
#include "api/state/state_checks.h"
#include "vt/registry.h"

namespace vt {

void GdnStateScatter(const ExecContext& ctx, const Tensor& cache, const Tensor& working, const Tensor& state_idx) {
  const api::Checker c("gdn_state_scatter");
  api::CheckStateMove(c, ctx, cache, working, state_idx);
  api::CheckNoOverlaps(c, {{&cache, "cache"}}, {{&working, "working"}, {&state_idx, "state_idx"}});
  // Two rows on one slot would race (H-2): refused, not "last wins".
  api::RequireSlots(c, ctx, state_idx, "state_idx", cache.shape[0], /*allow_null=*/false, /*distinct=*/true);
  GetKernel<kernel::GdnStateScatterFn>("gdn_state_scatter", ctx.backend)(ctx, cache, working, state_idx);
}

}  // namespace vt
