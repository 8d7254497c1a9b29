// Device twins of the NVFP4 pieces of vt/codec.h and the CPU quantizer
// (kernels/cpu/quant/fp4_quant_rows.h): the e4m3 decoder, the e2m1 encoder
// and decoder, the clamp and 1/0 := 0 reciprocal, and CUTLASS's 128x4 scale
// swizzle. Bit for bit the host functions: integer bit manipulation or
// comparisons only, so no device math library call can round differently.
// (The e4m3 ENCODER is F32ToFp8E4M3 in cuda/core/access.cuh.)
#pragma once

#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {
namespace fp4 {

inline constexpr int kGroup = 16;          // elements per block scale
inline constexpr float kE2M1Max = 6.0f;    // vt::kFp4E2M1Max
inline constexpr float kE4M3Max = 448.0f;  // vt::kFp8E4M3Max

// NaN passes through (neither comparison holds), as the CPU's clamp.
__device__ __forceinline__ float Clamp(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }
__host__ __device__ __forceinline__ float RecipOrZero(float v) { return v == 0.0f ? 0.0f : 1.0f / v; }

// vt::Fp8E4M3ToF32: bias 7, exponent 0 subnormal (m * 2^-9), 0x7F / 0xFF NaN
// (the host's nanf("") = 0x7FC00000, negated for 0xFF). Every code is an
// exact f32, so building its bits equals the host's exact double steps.
__device__ __forceinline__ float Fp8E4M3ToF32(uint8_t code) {
  const uint32_t exp = (code >> 3) & 0xFu, mant = code & 0x7u;
  float v;
  if (exp == 0xFu && mant == 0x7u) {
    v = FromBits(0x7FC00000u);
  } else if (exp == 0) {
    v = static_cast<float>(mant) * 0.001953125f;  // mant * 2^-9, exact
  } else {
    v = FromBits(((exp + 120u) << 23) | (mant << 20));  // (1 + mant/8) * 2^(exp-7)
  }
  return (code & 0x80u) ? -v : v;
}

// vt::F32ToFp4E2M1: nearest of {0,.5,1,1.5,2,3,4,6}, ties to the even code
// (thresholds alternate <= and <), |x| > 5 and NaN give 6, bit 3 the sign, a
// zero result always +0.
__device__ __forceinline__ uint32_t F32ToFp4E2M1(float f) {
  const float a = fabsf(f);
  uint32_t code;
  if (a <= 0.25f) {
    code = 0;
  } else if (a < 0.75f) {
    code = 1;
  } else if (a <= 1.25f) {
    code = 2;
  } else if (a < 1.75f) {
    code = 3;
  } else if (a <= 2.5f) {
    code = 4;
  } else if (a < 3.5f) {
    code = 5;
  } else if (a <= 5.0f) {
    code = 6;
  } else {
    code = 7;  // (5, inf] and NaN, which fails every comparison above
  }
  if (code == 0) return 0;
  return (f < 0.0f ? 0x8u : 0x0u) | code;
}

// vt::Fp4E2M1ToF32 of the low nibble: code e m -> m/2 (e = 0) or
// 2^(e-1) * (1 + m/2); bit 3 the sign.
__device__ __forceinline__ float Fp4E2M1ToF32(uint32_t nibble) {
  const uint32_t e = (nibble >> 1) & 0x3u, m = nibble & 0x1u;
  const float mag = e == 0 ? (m ? 0.5f : 0.0f) : FromBits(((e + 126u) << 23) | (m << 22));
  return (nibble & 0x8u) ? -mag : mag;
}

// CUTLASS's 128x4 scale tile (as SwizzledScaleOffset in the CPU quantizer):
// 128 rows x 4 groups = 512 bytes stored as [row % 32][(row % 128) / 32]
// [group % 4]; tiles row-major over (row / 128, group / 4), scale_cols / 4
// group tiles per row tile. A bijection of the padded scale tensor.
__host__ __device__ __forceinline__ int64_t SwizzledScaleOffset(int64_t row, int64_t group, int64_t scale_cols) {
  const int64_t tile = (row / 128) * (scale_cols / 4) + group / 4;
  const int64_t in_tile = (row % 32) * 16 + ((row % 128) / 32) * 4 + group % 4;
  return tile * 512 + in_tile;
}

}  // namespace fp4
}  // namespace vt::VT_CUDA_NS
