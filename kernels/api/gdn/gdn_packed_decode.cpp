#include "api/gdn/gdn_recurrence_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void GdnPackedDecode(const ExecContext& ctx, const Tensor& out, const Tensor& mixed_qkv,
                     const Tensor& a, const Tensor& b, const Tensor& a_log, const Tensor& dt_bias,
                     const Tensor& state, const Tensor& state_idx, const GdnArgs& args) {
  const api::Checker c("gdn_packed_decode");
  c.Operand(ctx, mixed_qkv, "mixed_qkv");
  c.Rank(mixed_qkv, "mixed_qkv", 2);
  c.FloatIn(mixed_qkv, "mixed_qkv");
  c.RowStrided(mixed_qkv, "mixed_qkv");
  // The projections and the output share one activation dtype (f16 legal).
  const Tensor* acts[] = {&a, &b};
  const char* act_names[] = {"a", "b"};
  for (int i = 0; i < 2; ++i) {
    c.Operand(ctx, *acts[i], act_names[i]);
    c.Rank(*acts[i], act_names[i], 2);
    c.SameDType(*acts[i], act_names[i], mixed_qkv, "mixed_qkv");
    c.RowStrided(*acts[i], act_names[i]);
  }
  c.Operand(ctx, out, "out");
  c.Rank(out, "out", 3);
  c.SameDType(out, "out", mixed_qkv, "mixed_qkv");
  c.Contiguous(out, "out");
  const Tensor* params[] = {&a_log, &dt_bias};
  const char* param_names[] = {"a_log", "dt_bias"};
  for (int i = 0; i < 2; ++i) {
    c.Operand(ctx, *params[i], param_names[i]);
    c.Rank(*params[i], param_names[i], 1);
    c.FloatIn(*params[i], param_names[i]);
    c.Contiguous(*params[i], param_names[i]);
  }
  c.Operand(ctx, state, "state");
  c.Rank(state, "state", 4);
  c.FloatIn(state, "state");
  c.Contiguous(state, "state");

  const int64_t batch = mixed_qkv.shape[0], width = mixed_qkv.shape[1];
  const int64_t slots = state.shape[0], hv = state.shape[1], dv = state.shape[2], dk = state.shape[3];
  c.Require("state.heads", hv >= 1 && dv >= 1 && dk >= 1,
            "state must have Hv, Dv, Dk >= 1, got " + state.Describe());
  const int64_t qk = width - hv * dv;
  c.Require("mixed_qkv.width", qk > 0 && qk % 2 == 0,
            "mixed_qkv width minus Hv*Dv (the q and k part) must be positive and even, got width " +
                std::to_string(width) + " with Hv*Dv = " + std::to_string(hv * dv));
  c.Require("mixed_qkv.key_heads", (qk / 2) % dk == 0,
            "mixed_qkv's q part (" + std::to_string(qk / 2) + " wide) must be whole heads of Dk = " +
                std::to_string(dk));
  const int64_t hk = qk / 2 / dk;
  c.Require("heads.gqa", hv % hk == 0,
            "Hv (" + std::to_string(hv) + ") must be a multiple of the inferred Hk (" + std::to_string(hk) + ")");
  c.Shape(a, "a", {batch, hv});
  c.Shape(b, "b", {batch, hv});
  c.Shape(out, "out", {batch, hv, dv});
  c.Shape(a_log, "a_log", {hv});
  c.Shape(dt_bias, "dt_bias", {hv});
  api::CheckI32Vector(c, ctx, state_idx, "state_idx", batch);
  c.PositiveFinite(args.scale, "scale");
  const Tensor* inputs[] = {&mixed_qkv, &a, &b, &a_log, &dt_bias, &state_idx};
  const char* input_names[] = {"mixed_qkv", "a", "b", "a_log", "dt_bias", "state_idx"};
  for (int i = 0; i < 6; ++i) {
    c.NoOverlap(out, "out", *inputs[i], input_names[i]);
    c.NoOverlap(state, "state", *inputs[i], input_names[i]);
  }
  c.NoOverlap(out, "out", state, "state");
  api::CheckLiveSlots(c, api::ReadI32(ctx, state_idx), slots, "state_idx");
  GetKernel<kernel::GdnPackedDecodeFn>("gdn_packed_decode", ctx.backend)(
      ctx, out, mixed_qkv, a, b, a_log, dt_bias, state, state_idx, args);
}

}  // namespace vt
