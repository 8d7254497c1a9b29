// concat_mla_nope_rope oracle (vLLM MLA: q = cat(q_nope, q_pe) per head, and
// the prefill k = cat(k_nope, k_pe.expand(heads)): mla_attention.py's
// _concat_k_nope_k_pe). A move, generic over the element E (a value or a bit
// pattern); inputs in logical row-major order. Specifies; does not optimise.
#pragma once

#include <cstdint>
#include <vector>

namespace vt::oracle {

// nope [T,H,Dn]; rope [T,rope_heads,Dr] with rope_heads H or 1 (broadcast).
template <class E>
std::vector<E> ConcatMlaNopeRope(int64_t tokens, int64_t heads, int64_t dn, int64_t dr, int64_t rope_heads,
                                 const std::vector<E>& nope, const std::vector<E>& rope) {
  std::vector<E> out;
  for (int64_t t = 0; t < tokens; ++t) {
    for (int64_t h = 0; h < heads; ++h) {
      for (int64_t d = 0; d < dn; ++d) out.push_back(nope[static_cast<std::size_t>((t * heads + h) * dn + d)]);
      const int64_t rh = rope_heads == 1 ? 0 : h;
      for (int64_t d = 0; d < dr; ++d) out.push_back(rope[static_cast<std::size_t>((t * rope_heads + rh) * dr + d)]);
    }
  }
  return out;
}

}  // namespace vt::oracle
