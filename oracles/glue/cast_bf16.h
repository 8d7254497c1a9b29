// cast_bf16 oracle (torch x.to(torch.bfloat16)): out[k] = in[k] in row-major
// order; the dtype change is the destination's rounding, applied by the
// harness (exact-value rule on values; the spec's conversion on bit patterns,
// oracles/glue/moves.h). Generic over the element. cast_f32 (oracles/glue/
// cast_f32.h) is the same definition in the other direction.
#pragma once

#include <vector>

namespace vt::oracle {

template <class E>
std::vector<E> Cast(const std::vector<E>& in_row_major) {
  return in_row_major;  // the definition: the same elements, in the same order
}

}  // namespace vt::oracle
