// Element access for CPU kernels: widen f32/f16/bf16 storage to f32 on load,
// round (ties to even) to the storage dtype on store. memcpy keeps both safe
// for unaligned views. The API layer has already refused every other dtype.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "vt/codec.h"
#include "vt/tensor.h"

namespace vt::cpu {

inline float LoadF32(const Tensor& t, int64_t elem) {
  const auto* base = static_cast<const unsigned char*>(t.data);
  switch (t.dtype) {
    case DType::kF32: {
      float f;
      std::memcpy(&f, base + elem * 4, 4);
      return f;
    }
    case DType::kF16: {
      uint16_t h;
      std::memcpy(&h, base + elem * 2, 2);
      return F16ToF32(h);
    }
    case DType::kBF16: {
      uint16_t b;
      std::memcpy(&b, base + elem * 2, 2);
      return BF16ToF32(b);
    }
    default:
      return std::nanf("");  // unreachable: validated upstream
  }
}

inline void StoreF32(const Tensor& t, int64_t elem, float v) {
  auto* base = static_cast<unsigned char*>(t.data);
  switch (t.dtype) {
    case DType::kF32:
      std::memcpy(base + elem * 4, &v, 4);
      break;
    case DType::kF16: {
      const uint16_t h = F32ToF16(v);
      std::memcpy(base + elem * 2, &h, 2);
      break;
    }
    case DType::kBF16: {
      const uint16_t b = F32ToBF16(v);
      std::memcpy(base + elem * 2, &b, 2);
      break;
    }
    default:
      break;  // unreachable: validated upstream
  }
}

// Typed element access: a kernel resolves an operand's storage type ONCE per
// call (WithFloatElem) and runs an inner loop typed on it, instead of the
// dtype switch of LoadF32/StoreF32 per element. Same conversions.
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

// fn(Elem{}) for the f32 / f16 / bf16 storage of dt (validated upstream:
// any other dtype is taken as f32).
template <class Fn>
void WithFloatElem(DType dt, Fn&& fn) {
  switch (dt) {
    case DType::kF16: fn(F16Elem{}); break;
    case DType::kBF16: fn(BF16Elem{}); break;
    default: fn(F32Elem{}); break;
  }
}

// fn(Elem{}) for the f32 / bf16 storage of an output (the FloatOut dtypes;
// validated upstream: any other dtype is taken as f32). Only the two
// storages a validated output can have are instantiated (the RoPE kernels'
// q/k/cache storage is this dispatch too).
template <class Fn>
void WithFloatOutElem(DType dt, Fn&& fn) {
  if (dt == DType::kBF16) {
    fn(BF16Elem{});
  } else {
    fn(F32Elem{});
  }
}

// fn(In{}, Out{}): a float input storage (f32 / f16 / bf16) and a float
// output storage (f32 / bf16), each resolved once per call. The attention
// and conv kernels read one input dtype and write one output dtype.
template <class Fn>
void WithFloatInOutElem(DType in, DType out, Fn&& fn) {
  WithFloatElem(in, [&](auto i) { WithFloatOutElem(out, [&](auto o) { fn(i, o); }); });
}

// Every element of a small contiguous float operand (weights, bias) widened
// to f32 once per call; null: none. The widening is exact, so this is what a
// per-element load would give.
inline std::vector<float> WidenAll(const Tensor* t) {
  std::vector<float> v;
  if (t == nullptr) return v;
  const int64_t n = t->Numel();
  v.resize(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = LoadF32(*t, i);
  return v;
}

// Element k of a validated contiguous integer tensor: i8, i64, or i32 (any
// other dtype - refused upstream - is read as i32). Metadata (offsets,
// slots, flags) and positions; memcpy, so no alignment is assumed.
inline int64_t IntAt(const Tensor& t, int64_t k) {
  const auto* p = static_cast<const unsigned char*>(t.data);
  switch (t.dtype) {
    case DType::kI8: {
      int8_t v;
      std::memcpy(&v, p + k, 1);
      return v;
    }
    case DType::kI64: {
      int64_t v;
      std::memcpy(&v, p + k * 8, 8);
      return v;
    }
    default: {
      int32_t v;
      std::memcpy(&v, p + k * 4, 4);
      return v;
    }
  }
}

inline void StoreU8(const Tensor& t, int64_t elem, uint8_t v) {
  static_cast<unsigned char*>(t.data)[elem] = v;
}

// The value v reads back as after a store to / load from dtype dt.
inline float RoundThrough(DType dt, float v) {
  switch (dt) {
    case DType::kF16: return F16ToF32(F32ToF16(v));
    case DType::kBF16: return BF16ToF32(F32ToBF16(v));
    default: return v;
  }
}

inline float SiluF32(float z) { return z / (1.0f + std::exp(-z)); }
inline float SigmoidF32(float z) { return 1.0f / (1.0f + std::exp(-z)); }

}  // namespace vt::cpu
