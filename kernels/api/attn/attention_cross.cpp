#include "api/attn/attn_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void AttentionCross(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
                    const Tensor& value, const Tensor* bias, const AttentionCrossArgs& args) {
  const api::Checker c("attention_cross");
  const api::AttnDims dims = api::CheckAttnOperands(c, ctx, out, query, key, value, args.scale);
  c.Require("query.tokens", dims.tq > 0, "query must hold Tq > 0 tokens, got " + query.Describe());
  c.Require("key.tokens", dims.tk > 0, "key must hold S > 0 tokens (a softmax over no key), got " + key.Describe());
  if (bias != nullptr) {
    c.Operand(ctx, *bias, "bias");
    c.Rank(*bias, "bias", 2);
    c.DType(*bias, "bias", {DType::kF32});
    c.Contiguous(*bias, "bias");
    c.Require("bias.shape", (bias->shape[0] == dims.tq || bias->shape[0] == 1) && bias->shape[1] == dims.tk,
              "bias must be [Tq, S] or [1, S] = [" + std::to_string(dims.tq) + " or 1, " + std::to_string(dims.tk) +
                  "], got " + bias->Describe());
    api::CheckOutputApart(c, out, *bias, "bias");
  }
  GetKernel<kernel::AttentionCrossFn>("attention_cross", ctx.backend)(ctx, out, query, key, value, bias, args);
}

}  // namespace vt
