// Scalar pieces the two Mamba2 CPU kernels share.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cpu/access.h"

namespace vt::cpu::mamba {

// softplus with upstream's guard: identity above 20 (where log1p(exp(v))
// rounds to v in f32 anyway, and exp would overflow further up).
inline float SoftplusGuarded(float v) { return v <= 20.0f ? std::log1p(std::exp(v)) : v; }

// A contiguous float operand widened to f32 once per call, so the inner loops
// read plain floats whatever the operand's dtype (widening is exact).
inline std::vector<float> Widen(const Tensor& t) {
  const int64_t n = t.Numel();
  std::vector<float> v(static_cast<std::size_t>(n));
  switch (t.dtype) {
    case DType::kF32:
      if (n > 0) std::memcpy(v.data(), t.data, static_cast<std::size_t>(n) * sizeof(float));
      break;
    case DType::kF16:
    case DType::kBF16: {
      const auto* p = static_cast<const uint16_t*>(t.data);
      const bool half = t.dtype == DType::kF16;
      for (int64_t i = 0; i < n; ++i) {
        uint16_t u;
        std::memcpy(&u, p + i, sizeof u);
        v[static_cast<std::size_t>(i)] = half ? F16ToF32(u) : BF16ToF32(u);
      }
      break;
    }
    default:
      break;  // unreachable: validated upstream
  }
  return v;
}

inline std::vector<int32_t> ReadIndices(const Tensor& t) {
  std::vector<int32_t> v(static_cast<std::size_t>(t.Numel()));
  if (!v.empty()) std::memcpy(v.data(), t.data, v.size() * sizeof(int32_t));
  return v;
}

}  // namespace vt::cpu::mamba
