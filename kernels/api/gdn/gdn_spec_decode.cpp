#include "api/gdn/gdn_recurrence_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void GdnSpecDecode(const ExecContext& ctx, const Tensor& out, const Tensor& q, const Tensor& k,
                   const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                   const Tensor& cu_seqlens, const Tensor& state_indices,
                   const Tensor& num_accepted_tokens, const GdnArgs& args) {
  const api::Checker c("gdn_spec_decode");
  const api::GdnDims d = api::CheckGdnOperands(c, ctx, out, q, k, v, g, beta, state, args);
  c.Operand(ctx, state_indices, "state_indices");
  c.DType(state_indices, "state_indices", {vt::DType::kI32});
  c.Rank(state_indices, "state_indices", 2);
  c.Contiguous(state_indices, "state_indices");
  const int64_t reqs = state_indices.shape[0], cols = state_indices.shape[1];
  c.Require("state_indices.columns", cols >= 1,
            "state_indices must have C >= 1 columns, got " + state_indices.Describe());
  api::CheckI32Vector(c, ctx, cu_seqlens, "cu_seqlens", reqs + 1);
  api::CheckI32Vector(c, ctx, num_accepted_tokens, "num_accepted_tokens", reqs);
  const Tensor* meta[] = {&cu_seqlens, &state_indices, &num_accepted_tokens};
  const char* meta_names[] = {"cu_seqlens", "state_indices", "num_accepted_tokens"};
  for (int i = 0; i < 3; ++i) {
    c.NoOverlap(out, "out", *meta[i], meta_names[i]);
    c.NoOverlap(state, "state", *meta[i], meta_names[i]);
  }
  const std::vector<int32_t> cu = api::CheckCumulative(c, ctx, cu_seqlens, "cu_seqlens", d.t);
  bool fits = true;
  for (int64_t r = 0; r < reqs; ++r) fits = fits && cu[r + 1] - cu[r] <= cols;
  c.Require("cu_seqlens.length", fits,
            "every request's token count must be <= state_indices' " + std::to_string(cols) +
                " columns (one snapshot slot per token)");
  bool accepted_ok = true;
  for (int32_t a : api::ReadI32(ctx, num_accepted_tokens)) accepted_ok = accepted_ok && a >= 1 && a <= cols;
  c.Require("num_accepted_tokens.range", accepted_ok,
            "num_accepted_tokens must be in [1, " + std::to_string(cols) + "]");
  // One slot, one writer: across the whole table, so that neither two
  // requests' snapshots nor one request's start slot and another's snapshot
  // can meet (op-contracts H-2).
  api::CheckLiveSlots(c, api::ReadI32(ctx, state_indices), d.slots, "state_indices");
  GetKernel<kernel::GdnSpecDecodeFn>("gdn_spec_decode", ctx.backend)(
      ctx, out, q, k, v, g, beta, state, cu_seqlens, state_indices, num_accepted_tokens, args);
}

}  // namespace vt
