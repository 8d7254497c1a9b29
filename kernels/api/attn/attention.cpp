#include "api/attn/attn_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

namespace api {

void DenseAttention(const char* op, const ExecContext& ctx, const Tensor& out, const Tensor& query,
                    const Tensor& key, const Tensor& value, const AttentionArgs& args) {
  const Checker c(op);
  const AttnDims dims = CheckAttnOperands(c, ctx, out, query, key, value, args.scale);
  c.Require("key.tokens", dims.tk == dims.tq,
            "key must be [T, Hkv, D] with query's token count T = " + std::to_string(dims.tq) + ", got " +
                key.Describe());
  GetKernel<kernel::AttentionFn>(op, ctx.backend)(ctx, out, query, key, value, args);
}

}  // namespace api

void Attention(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
               const Tensor& value, const AttentionArgs& args) {
  api::DenseAttention("attention", ctx, out, query, key, value, args);
}

}  // namespace vt
