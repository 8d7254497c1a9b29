// The DFlash mask over one request's key index: a query at index q (its own
// position in the keys it may see) attends to keys [lo, hi] -
// bidirectional: the whole range [0, n); causal: [0, q]; causal with a
// sliding window w > 0: [max(0, q - (w - 1)), q]. The window applies only
// with causal (op-contracts 3.8).
#pragma once

#include <algorithm>
#include <cstdint>

namespace vt::cpu::attn {

struct KeyRange {
  int64_t lo, hi;  // inclusive
};

inline KeyRange DFlashVisible(int64_t q, int64_t n, bool causal, int64_t window) {
  if (!causal) return {0, n - 1};
  const int64_t lo = window > 0 ? std::max<int64_t>(0, q - (window - 1)) : 0;
  return {lo, q};
}

}  // namespace vt::cpu::attn
