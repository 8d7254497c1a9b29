// Row access for the MoE kernels: the operand dtype is resolved once per row
// span, then the loop runs over one concrete element type.
#pragma once

#include <cstdint>
#include <cstring>

#include "vt/codec.h"
#include "vt/tensor.h"

namespace vt::cpu::moe {

// dst[i] = f32(t[first + i]) for i < n (f32 / f16 / bf16 storage).
inline void LoadRowF32(const Tensor& t, int64_t first, int64_t n, float* dst) {
  const auto* base = static_cast<const unsigned char*>(t.data);
  if (t.dtype == DType::kF32) {
    std::memcpy(dst, base + first * 4, static_cast<size_t>(n) * 4);
    return;
  }
  const unsigned char* p = base + first * 2;
  if (t.dtype == DType::kF16) {
    for (int64_t i = 0; i < n; ++i) {
      uint16_t h;
      std::memcpy(&h, p + i * 2, 2);
      dst[i] = F16ToF32(h);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      uint16_t h;
      std::memcpy(&h, p + i * 2, 2);
      dst[i] = BF16ToF32(h);
    }
  }
}

// t[first + i] = round_to_dtype(src[i]) for i < n (f32 / bf16 storage).
inline void StoreRowF32(const Tensor& t, int64_t first, int64_t n, const float* src) {
  auto* base = static_cast<unsigned char*>(t.data);
  if (t.dtype == DType::kF32) {
    std::memcpy(base + first * 4, src, static_cast<size_t>(n) * 4);
    return;
  }
  unsigned char* p = base + first * 2;
  for (int64_t i = 0; i < n; ++i) {
    const uint16_t b = F32ToBF16(src[i]);
    std::memcpy(p + i * 2, &b, 2);
  }
}

}  // namespace vt::cpu::moe
