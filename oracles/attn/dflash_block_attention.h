// dflash_block_attention oracle (vLLM qwen3_dflash DFlashQwen3Attention): the
// packed sequence is cut into request blocks [cu[r], cu[r+1]); a query sees
// only keys of its own block, under the DFlash mask over in-block indices.
#pragma once

#include "oracles/attn/softmax_attention.h"

namespace vt::oracle {

// The request whose block holds token i.
inline int64_t BlockOf(const std::vector<int64_t>& cu, int64_t i) {
  int64_t r = 0;
  while (!(cu[static_cast<size_t>(r)] <= i && i < cu[static_cast<size_t>(r + 1)])) ++r;
  return r;
}

// q [t, hq, d], k/v [t, hk, d]; cu [num_reqs + 1].
template <class S>
std::vector<S> DFlashBlockAttention(const AttnShape& sh, const std::vector<double>& q, const std::vector<double>& k,
                                    const std::vector<double>& v, double scale, const std::vector<int64_t>& cu,
                                    bool causal, int64_t window) {
  return AttendAll<S>(
      sh, q, scale, [&](int64_t) { return sh.tq; },
      [&](int64_t i, int64_t j) {
        const int64_t r = BlockOf(cu, i), start = cu[static_cast<size_t>(r)];
        return BlockOf(cu, j) == r && DFlashVisible(i - start, j - start, causal, window);
      },
      [&](int64_t, int64_t j, int64_t g, bool val) { return &(val ? v : k)[static_cast<size_t>((j * sh.hk + g) * sh.d)]; });
}

}  // namespace vt::oracle
