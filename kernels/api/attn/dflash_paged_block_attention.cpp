// dflash_paged_block_attention validator. Beyond the shapes, it reads every
// metadata value the kernel will use and refuses the call before any write
// (hazard H-1: the reference trusted cu_seqlens bounds and order, context
// lengths, page ids, and the page height equal to block_size). The metadata
// may live in a device backend's memory: its values are read through a host
// copy (api::HostValues), never through the operand's own pointer.
#include <cstring>
#include <vector>

#include "api/attn/attn_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {
namespace {

// The values of a contiguous i32 operand, read on the host.
std::vector<int32_t> ReadI32(const ExecContext& ctx, const Tensor& device_t) {
  const api::HostValues host(ctx, device_t);
  std::vector<int32_t> v(static_cast<size_t>(host->Numel()));
  if (!v.empty()) std::memcpy(v.data(), host->data, v.size() * 4);
  return v;
}

void CheckMetadata(const api::Checker& c, const ExecContext& ctx, const Tensor& t, const char* name, int rank) {
  c.Operand(ctx, t, name);
  c.Rank(t, name, rank);
  c.DType(t, name, {DType::kI32});
  c.Contiguous(t, name);
}

}  // namespace

void DFlashPagedBlockAttention(const ExecContext& ctx, const Tensor& out, const Tensor& query,
                               const Tensor& block_key, const Tensor& block_value, const Tensor& ctx_key,
                               const Tensor& ctx_value, const Tensor& cu_seqlens, const Tensor& seq_lens,
                               const Tensor& block_table, const DFlashPagedBlockAttentionArgs& args) {
  const api::Checker c("dflash_paged_block_attention");
  const api::AttnDims dims =
      api::CheckAttnOperands(c, ctx, out, query, block_key, block_value, args.scale, "block_key", "block_value");
  c.Require("block_key.tokens", dims.tk == dims.tq,
            "block_key must be [N, Hkv, D] with query's token count N = " + std::to_string(dims.tq) + ", got " +
                block_key.Describe());
  api::CheckDFlashArgs(c, args.sliding_window, args.num_reqs);
  c.Require("block_size.range", args.block_size > 0,
            "block_size must be > 0, got " + std::to_string(args.block_size));

  // The paged context cache: [pages, block_size, Hkv, D], query's dtype.
  c.Operand(ctx, ctx_key, "ctx_key");
  c.Rank(ctx_key, "ctx_key", 4);
  c.SameDType(ctx_key, "ctx_key", query, "query");
  c.Contiguous(ctx_key, "ctx_key");
  c.Require("ctx_key.shape", ctx_key.shape[2] == dims.hk && ctx_key.shape[3] == dims.d,
            "ctx_key must be [pages, block_size, Hkv, D] with Hkv = " + std::to_string(dims.hk) + ", D = " +
                std::to_string(dims.d) + ", got " + ctx_key.Describe());
  c.Require("ctx_key.page_height", ctx_key.shape[1] == args.block_size,
            "ctx_key page height " + std::to_string(ctx_key.shape[1]) + " must equal the block_size argument " +
                std::to_string(args.block_size) + " (the kernel steps pages by block_size)");
  c.Operand(ctx, ctx_value, "ctx_value");
  c.Rank(ctx_value, "ctx_value", 4);
  c.SameDType(ctx_value, "ctx_value", query, "query");
  c.Contiguous(ctx_value, "ctx_value");
  c.SameShape(ctx_value, "ctx_value", ctx_key, "ctx_key");

  const int64_t reqs = args.num_reqs;
  CheckMetadata(c, ctx, cu_seqlens, "cu_seqlens", 1);
  c.Shape(cu_seqlens, "cu_seqlens", {reqs + 1});
  CheckMetadata(c, ctx, seq_lens, "seq_lens", 1);
  c.Shape(seq_lens, "seq_lens", {reqs});
  CheckMetadata(c, ctx, block_table, "block_table", 2);
  c.Require("block_table.rows", block_table.shape[0] == reqs,
            "block_table must be [num_reqs, max_pages] with num_reqs = " + std::to_string(reqs) + ", got " +
                block_table.Describe());
  for (const auto& [t, name] : {std::pair<const Tensor&, const char*>{ctx_key, "ctx_key"},
                                {ctx_value, "ctx_value"},
                                {cu_seqlens, "cu_seqlens"},
                                {seq_lens, "seq_lens"},
                                {block_table, "block_table"}}) {
    api::CheckOutputApart(c, out, t, name);
  }

  // Metadata values (now known to be i32, contiguous and of the right length).
  const std::vector<int32_t> cu = ReadI32(ctx, cu_seqlens), lens = ReadI32(ctx, seq_lens),
                             table = ReadI32(ctx, block_table);
  api::CheckCuSeqlens(c, "cu_seqlens", cu.data(), reqs, dims.tq, "N");
  const int64_t max_pages = block_table.shape[1], pages = ctx_key.shape[0];
  int64_t bad_len = -1, bad_page_req = -1, bad_page = -1;
  for (int64_t r = 0; r < reqs; ++r) {
    const int64_t len = lens[static_cast<size_t>(r)];
    if (bad_len < 0 && (len < 0 || len > max_pages * args.block_size)) bad_len = r;
    if (len < 0 || len > max_pages * args.block_size) continue;
    // Only the pages the context occupies are read (a padded table may hold anything past them).
    for (int64_t p = 0; p * args.block_size < len && bad_page < 0; ++p) {
      const int64_t id = table[static_cast<size_t>(r * max_pages + p)];
      if (id < 0 || id >= pages) {
        bad_page_req = r;
        bad_page = p;
      }
    }
  }
  c.Require("seq_lens.range", bad_len < 0,
            "seq_lens[" + std::to_string(bad_len) + "] = " +
                (bad_len < 0 ? std::string() : std::to_string(lens[static_cast<size_t>(bad_len)])) +
                " must be in [0, max_pages * block_size = " + std::to_string(max_pages * args.block_size) + "]");
  c.Require("block_table.range", bad_page < 0,
            "block_table[" + std::to_string(bad_page_req) + "][" + std::to_string(bad_page) + "] = " +
                (bad_page < 0 ? std::string()
                              : std::to_string(table[static_cast<size_t>(bad_page_req * max_pages + bad_page)])) +
                " must name one of the cache's " + std::to_string(pages) + " pages");
  GetKernel<kernel::DFlashPagedBlockAttentionFn>("dflash_paged_block_attention", ctx.backend)(
      ctx, out, query, block_key, block_value, ctx_key, ctx_value, cu_seqlens, seq_lens, block_table, args);
}

}  // namespace vt
