// dflash_paged_block_attention oracle: request r's keys are its C_r context
// rows, read from the paged cache (row c: page block_table[r][c / block_size],
// height c % block_size), followed by its block's own rows; block query ii
// sits at C_r + ii of that combined order, under the DFlash mask.
#pragma once

#include "oracles/attn/dflash_block_attention.h"

namespace vt::oracle {

struct PagedContext {
  const std::vector<double>* key = nullptr;    // [pages, block_size, hk, d]
  const std::vector<double>* value = nullptr;
  int64_t block_size = 0;
  std::vector<int64_t> lens;                   // C_r
  std::vector<int64_t> table;                  // [num_reqs, max_pages]
  int64_t max_pages = 0;
};

template <class S>
std::vector<S> DFlashPagedBlockAttention(const AttnShape& sh, const std::vector<double>& q,
                                         const std::vector<double>& bk, const std::vector<double>& bv,
                                         const PagedContext& pc, double scale, const std::vector<int64_t>& cu,
                                         bool causal, int64_t window) {
  const auto request = [&](int64_t i) { return BlockOf(cu, i); };
  const auto context = [&](int64_t i) { return pc.lens[static_cast<size_t>(request(i))]; };
  const auto block_len = [&](int64_t i) {
    const int64_t r = request(i);
    return cu[static_cast<size_t>(r + 1)] - cu[static_cast<size_t>(r)];
  };
  return AttendAll<S>(
      sh, q, scale, [&](int64_t i) { return context(i) + block_len(i); },
      [&](int64_t i, int64_t c) {
        const int64_t qi = context(i) + (i - cu[static_cast<size_t>(request(i))]);
        return DFlashVisible(qi, c, causal, window);
      },
      [&](int64_t i, int64_t c, int64_t g, bool val) {
        const int64_t r = request(i), ctx_len = context(i);
        if (c < ctx_len) {
          const int64_t page = pc.table[static_cast<size_t>(r * pc.max_pages + c / pc.block_size)];
          const int64_t row = page * pc.block_size + c % pc.block_size;
          return &(val ? *pc.value : *pc.key)[static_cast<size_t>((row * sh.hk + g) * sh.d)];
        }
        const int64_t row = cu[static_cast<size_t>(r)] + (c - ctx_len);
        return &(val ? bv : bk)[static_cast<size_t>((row * sh.hk + g) * sh.d)];
      });
}

}  // namespace vt::oracle
