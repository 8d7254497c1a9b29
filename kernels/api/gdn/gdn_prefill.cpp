#include "api/gdn/gdn_recurrence_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void GdnPrefill(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
                const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                const Tensor& query_start_loc, const GdnArgs& args) {
  const api::Checker c("gdn_prefill");
  const api::GdnDims d = api::CheckGdnOperands(c, ctx, out, q, k, v, g, beta, state, args);
  api::CheckI32Vector(c, ctx, query_start_loc, "query_start_loc", d.slots + 1);
  c.NoOverlap(out, "out", query_start_loc, "query_start_loc");
  c.NoOverlap(state, "state", query_start_loc, "query_start_loc");
  api::CheckCumulative(c, ctx, query_start_loc, "query_start_loc", d.t);
  GetKernel<kernel::GdnPrefillFn>("gdn_prefill", ctx.backend)(ctx, out, q, k, v, g, beta, state,
                                                              query_start_loc, args);
}

}  // namespace vt
