#include "api/gdn/gdn_recurrence_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void GdnDecode(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
               const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
               const Tensor* state_idx, const GdnArgs& args) {
  const api::Checker c("gdn_decode");
  const api::GdnDims d = api::CheckGdnOperands(c, ctx, out, q, k, v, g, beta, state, args);
  if (state_idx == nullptr) {
    c.Require("state.rows", d.slots == d.t,
              "without state_idx, state must have one row per request (" + std::to_string(d.t) +
                  "), got " + state.Describe());
  } else {
    api::CheckI32Vector(c, ctx, *state_idx, "state_idx", d.t);
    c.NoOverlap(out, "out", *state_idx, "state_idx");
    c.NoOverlap(state, "state", *state_idx, "state_idx");
    // A cache smaller than the batch is legal: NULL rows address no slot.
    api::CheckLiveSlots(c, api::ReadI32(ctx, *state_idx), d.slots, "state_idx");
  }
  GetKernel<kernel::GdnDecodeFn>("gdn_decode", ctx.backend)(ctx, out, q, k, v, g, beta, state,
                                                            state_idx, args);
}

}  // namespace vt
