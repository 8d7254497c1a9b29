// Storage helpers of the conv and state-movement kernels: the typed element
// access of cpu/access.h (resolved once per call), whole small operands
// widened once, metadata reads.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "cpu/access.h"
#include "vt/codec.h"
#include "vt/tensor.h"

namespace vt::cpu::conv {

using cpu::BF16Elem;
using cpu::F16Elem;
using cpu::F32Elem;

// fn(Elem{}) for the f32 / f16 / bf16 storage of dt (validated upstream).
template <class Fn>
void WithFloat(DType dt, Fn&& fn) {
  cpu::WithFloatElem(dt, static_cast<Fn&&>(fn));
}

// Every element of a small contiguous float operand (weights, bias) widened
// to f32 once per call: the widening is exact, so this is what a per-element
// load would give.
inline std::vector<float> WidenAll(const Tensor* t) {
  std::vector<float> v;
  if (t == nullptr) return v;
  const int64_t n = t->Numel();
  v.resize(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = LoadF32(*t, i);
  return v;
}

// Element k of a validated rank-1 i8 / i32 metadata tensor.
inline int64_t MetaAt(const Tensor& t, int64_t k) {
  const auto* p = static_cast<const unsigned char*>(t.data);
  if (t.dtype == DType::kI8) {
    int8_t v;
    std::memcpy(&v, p + k, 1);
    return v;
  }
  int32_t v;
  std::memcpy(&v, p + k * 4, 4);
  return v;
}

// The activation the conv ops apply to the f32 sum.
inline float Activate(float acc, bool silu) { return silu ? SiluF32(acc) : acc; }

}  // namespace vt::cpu::conv
