// Byte moves of whole index rows for index_select / index_copy: a row of a
// row-strided view [N, D...] is its innermost rows (packed) at the offsets its
// strides give; the packed side is one contiguous run per row.
#pragma once

#include <cstdint>
#include <cstring>

#include "cpu/glue/convert.h"

namespace vt::cpu {

// Innermost rows per index row, and elements per innermost row.
struct RowShape {
  int64_t sub_rows = 1, inner = 0;
};
inline RowShape IndexRowShape(const Tensor& t) {
  RowShape s;
  s.inner = t.rank == 1 ? 1 : t.shape[t.rank - 1];
  for (int d = 1; d + 1 < t.rank; ++d) s.sub_rows *= t.shape[d];
  return s;
}

// Element offset of innermost row `sub` of index row `row` of a row-strided view.
inline int64_t SubRowOffset(const Tensor& t, int64_t row, int64_t sub) {
  int64_t off = row * t.stride[0];
  for (int d = t.rank - 1; d-- > 1;) {
    off += (sub % t.shape[d]) * t.stride[d];
    sub /= t.shape[d];
  }
  return off;
}

// Copies index row `strided_row` of `strided` to / from the packed row at
// `packed` (bytes). to_packed: strided -> packed, else packed -> strided.
inline void MoveRow(const Tensor& strided, int64_t strided_row, unsigned char* packed, bool to_packed) {
  const RowShape s = IndexRowShape(strided);
  const int64_t es = static_cast<int64_t>(strided.ElementSize());
  auto* base = static_cast<unsigned char*>(strided.data);
  for (int64_t k = 0; k < s.sub_rows; ++k) {
    unsigned char* sp = base + SubRowOffset(strided, strided_row, k) * es;
    unsigned char* pp = packed + k * s.inner * es;
    const auto n = static_cast<std::size_t>(s.inner * es);
    if (to_packed) {
      std::memcpy(pp, sp, n);
    } else {
      std::memcpy(sp, pp, n);
    }
  }
}

}  // namespace vt::cpu
