// gdn_conv_split oracle (the GDN layer's rearrange_mixed_qkv: torch.split of
// the conv output into [key_dim, key_dim, value_dim] columns). A move, generic
// over the element E (a value or a bit pattern): the three-way column split
// of oracles/glue/qkv_split.h with q and k of one width.
#pragma once

#include <cstdint>
#include <vector>

#include "oracles/glue/qkv_split.h"

namespace vt::oracle {

// {q, k, v}, each row-major [T, width].
template <class E>
std::vector<std::vector<E>> GdnConvSplit(int64_t tokens, int64_t key_dim, int64_t value_dim,
                                         const std::vector<E>& conv) {
  return QkvSplit<E>(tokens, {key_dim, key_dim, value_dim}, conv);
}

}  // namespace vt::oracle
