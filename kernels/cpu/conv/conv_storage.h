// Typed element access for the conv and state-movement kernels: each kernel
// resolves its operands' storage types ONCE per call (WithFloat) and runs an
// inner loop typed on them, instead of a dtype switch per element. Loads
// widen f16/bf16 to f32 exactly; stores round to nearest even (vt/codec.h).
// memcpy keeps every access safe for unaligned views.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "cpu/access.h"
#include "vt/codec.h"
#include "vt/tensor.h"

namespace vt::cpu::conv {

struct F32Elem {
  static float Load(const void* base, int64_t i) {
    float f;
    std::memcpy(&f, static_cast<const char*>(base) + i * 4, 4);
    return f;
  }
  static void Store(void* base, int64_t i, float v) { std::memcpy(static_cast<char*>(base) + i * 4, &v, 4); }
};

struct F16Elem {
  static float Load(const void* base, int64_t i) {
    uint16_t h;
    std::memcpy(&h, static_cast<const char*>(base) + i * 2, 2);
    return F16ToF32(h);
  }
  static void Store(void* base, int64_t i, float v) {
    const uint16_t h = F32ToF16(v);
    std::memcpy(static_cast<char*>(base) + i * 2, &h, 2);
  }
};

struct BF16Elem {
  static float Load(const void* base, int64_t i) {
    uint16_t b;
    std::memcpy(&b, static_cast<const char*>(base) + i * 2, 2);
    return BF16ToF32(b);
  }
  static void Store(void* base, int64_t i, float v) {
    const uint16_t b = F32ToBF16(v);
    std::memcpy(static_cast<char*>(base) + i * 2, &b, 2);
  }
};

// fn(Elem{}) for the f32 / f16 / bf16 storage of dt (validated upstream).
template <class Fn>
void WithFloat(DType dt, Fn&& fn) {
  switch (dt) {
    case DType::kF16: fn(F16Elem{}); break;
    case DType::kBF16: fn(BF16Elem{}); break;
    default: fn(F32Elem{}); break;
  }
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
