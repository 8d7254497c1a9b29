// dflash_paged_block_attention CUDA kernel: each block query of request r
// attends over [r's C_r context rows, read from the paged cache through the
// block table ; its own block], the DFlash mask over that combined index
// (query ii at C_r + ii). A block per (token, q-head) row (dflash.cuh), the
// CPU's order (attend_row.cuh): the same bytes as the CPU on cuda-emu.
// The metadata (cu_seqlens, seq_lens, block_table) stay in device memory and
// are read by the kernel; their values were validated on the host through a
// host copy (api::HostValues) before the launch. Context row c lives on page
// block_table[r][c / bs] at height c % bs; the last page of a context may be
// partial, and rows at or past C_r come from the block, never from the page.
#include "cuda/attn/dflash.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct PagedKeys {
  DevPtr ck, cv, bk, bv;
  const int32_t* table;  // the request's row of block_table
  int64_t lo, context, bs, start, hk, g, d;
  __device__ attn::KeyRef operator()(int64_t j) const {
    const int64_t c = lo + j;
    if (c < context) {
      const int64_t page = table[c / bs];
      return attn::KeyRef{ck, cv, ((page * bs + c % bs) * hk + g) * d};
    }
    return attn::KeyRef{bk, bv, ((start + c - context) * hk + g) * d};
  }
};

struct PagedMap {
  DevPtr ck, cv, bk, bv;
  const int32_t *cu, *lens, *table;
  int64_t reqs, max_pages, bs, hq, hk, d, group, window;
  bool causal;
  __device__ attn::RowJob<PagedKeys> operator()(int64_t r) const {
    const int64_t tok = r / hq, h = r % hq;
    const int64_t req = attn::RequestOf(cu, reqs, tok);
    const int64_t start = cu[req], len = cu[req + 1] - start, context = lens[req];
    const attn::KeyRange vis = attn::DFlashVisible(context + tok - start, context + len, causal, window);
    return attn::RowJob<PagedKeys>{
        (tok * hq + h) * d, 0, vis.hi - vis.lo + 1,
        PagedKeys{ck, cv, bk, bv, table + req * max_pages, vis.lo, context, bs, start, hk, h / group, d}};
  }
};

void DFlashPagedBlockAttentionCuda(const ExecContext&, const Tensor& out, const Tensor& query,
                                   const Tensor& block_key, const Tensor& block_value, const Tensor& ctx_key,
                                   const Tensor& ctx_value, const Tensor& cu_seqlens, const Tensor& seq_lens,
                                   const Tensor& block_table, const DFlashPagedBlockAttentionArgs& args) {
  const int64_t n = query.shape[0], hq = query.shape[1], d = query.shape[2], hk = block_key.shape[1];
  const attn::RowIo io{Dev(query), Dev(out), DevPtr{}, d, args.scale};
  attn::LaunchRows("dflash_paged_block_attention", io, n * hq,
                   PagedMap{Dev(ctx_key), Dev(ctx_value), Dev(block_key), Dev(block_value),
                            static_cast<const int32_t*>(cu_seqlens.data), static_cast<const int32_t*>(seq_lens.data),
                            static_cast<const int32_t*>(block_table.data), args.num_reqs, block_table.shape[1],
                            args.block_size, hq, hk, d, hq / hk, args.sliding_window, args.causal});
}

}  // namespace

void Register_dflash_paged_block_attention() {
  RegisterTyped<kernel::DFlashPagedBlockAttentionFn>("dflash_paged_block_attention", VT_CUDA_BACKEND,
                                                     &DFlashPagedBlockAttentionCuda);
}

}  // namespace vt::VT_CUDA_NS
