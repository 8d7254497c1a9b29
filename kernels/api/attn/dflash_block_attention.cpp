#include "api/attn/attn_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void DFlashBlockAttention(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
                          const Tensor& value, const DFlashBlockAttentionArgs& args) {
  const api::Checker c("dflash_block_attention");
  const api::AttnDims dims = api::CheckAttnOperands(c, ctx, out, query, key, value, args.scale);
  c.Require("key.tokens", dims.tk == dims.tq,
            "key must be [T, Hkv, D] with query's token count T = " + std::to_string(dims.tq) + ", got " +
                key.Describe());
  api::CheckDFlashArgs(c, args.sliding_window, args.num_reqs);
  c.Require("cu_seqlens.null", args.cu_seqlens != nullptr, "cu_seqlens (host array [num_reqs + 1]) must be set");
  api::CheckCuSeqlens(c, "cu_seqlens", args.cu_seqlens, args.num_reqs, dims.tq, "T");
  GetKernel<kernel::DFlashBlockAttentionFn>("dflash_block_attention", ctx.backend)(ctx, out, query, key, value,
                                                                                   args);
}

}  // namespace vt
