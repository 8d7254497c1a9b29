// A vector of n <= kW elements of storage St, for any tier's traits V
// (vec_avx2.h / vec_avx512.h): the full load/store when n == kW, the partial
// (masked) one below it. Include only inside a tier's target region, after
// that tier's vec_*.h.
#pragma once

namespace vt::cpu::simd {

// always_inline: GCC at -O2 leaves these as calls in the larger tier
// loops (a call per vector, its vector argument through memory).
template <class V, class St>
__attribute__((always_inline)) inline typename V::F LoadPart(const void* p, int n) {
  return n == V::kW ? V::Load(St{}, p) : V::LoadN(St{}, p, n);
}

template <class V, class St>
__attribute__((always_inline)) inline void StorePart(void* p, typename V::F v, int n) {
  if (n == V::kW) {
    V::Store(St{}, p, v);
  } else {
    V::StoreN(St{}, p, v, n);
  }
}

}  // namespace vt::cpu::simd
