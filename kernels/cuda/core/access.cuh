// Device-side element access and codecs. They reproduce vt/codec.h bit for
// bit (ties to even, the same NaN rules) so a CUDA store rounds exactly as a
// CPU store: pure integer bit manipulation, plus the same exact double steps
// for fp8. The dtype is a kernel argument read per element: one uniform
// branch (every thread takes the same side), chosen over one template
// instance per dtype combination to keep the nvcc build of 16 ops x 2
// architectures within the CI budget on 2 cores.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "cuda/core/common.cuh"

namespace vt::VT_CUDA_NS {

// A kernel's view of one operand: base pointer and element dtype.
struct DevPtr {
  void* p = nullptr;
  DType dt = DType::kF32;
};
inline DevPtr Dev(const Tensor& t) { return DevPtr{t.data, t.dtype}; }
inline DevPtr Dev(const Tensor* t) { return t == nullptr ? DevPtr{} : DevPtr{t->data, t->dtype}; }

__host__ __device__ __forceinline__ uint32_t Bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
__host__ __device__ __forceinline__ float FromBits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

__host__ __device__ __forceinline__ float Bf16ToF32(uint16_t b) { return FromBits(static_cast<uint32_t>(b) << 16); }

__host__ __device__ __forceinline__ uint16_t F32ToBf16(float f) {
  const uint32_t x = Bits(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((x >> 16) | 0x0040u);  // quiet NaN, payload kept
  return static_cast<uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

__host__ __device__ __forceinline__ float F16ToF32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  uint32_t mant = h & 0x03FFu;
  if (exp == 0x1Fu) return FromBits(sign | 0x7F800000u | (mant << 13));
  if (exp != 0) return FromBits(sign | ((exp + 112u) << 23) | (mant << 13));
  if (mant == 0) return FromBits(sign);
  int e = -14;
  while ((mant & 0x0400u) == 0) {
    mant <<= 1;
    --e;
  }
  return FromBits(sign | (static_cast<uint32_t>(e + 127) << 23) | ((mant & 0x03FFu) << 13));
}

__host__ __device__ __forceinline__ uint16_t F32ToF16(float f) {
  const uint32_t x = Bits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t mag = x & 0x7FFFFFFFu;
  if (mag > 0x7F800000u) return static_cast<uint16_t>(sign | 0x7C00u | 0x0200u | ((mag >> 13) & 0x03FFu));
  const int exp = static_cast<int>(mag >> 23) - 127;
  const uint32_t mant = mag & 0x7FFFFFu;
  if (exp > 15) return static_cast<uint16_t>(sign | 0x7C00u);
  if (exp >= -14) {
    const uint32_t biased = (static_cast<uint32_t>(exp + 15) << 10) | (mant >> 13);
    const uint32_t rest = mant & 0x1FFFu;
    const bool up = rest > 0x1000u || (rest == 0x1000u && (biased & 1u));
    return static_cast<uint16_t>(sign | (biased + (up ? 1u : 0u)));
  }
  if (mag == 0) return sign;
  const uint32_t sig = (mag >> 23) ? (mant | 0x800000u) : mant;
  const int e = (mag >> 23) ? exp : -126;
  const int shift = -24 - (e - 23);
  if (shift > 31) return sign;
  const uint32_t kept = sig >> shift, rest = sig & ((1u << shift) - 1u), half = 1u << (shift - 1);
  const bool up = rest > half || (rest == half && (kept & 1u));
  return static_cast<uint16_t>(sign | (kept + (up ? 1u : 0u)));
}

// e4m3 (saturating, NaN -> 0x7F), the same exact double steps as vt::F32ToFp8E4M3.
__host__ __device__ __forceinline__ uint8_t F32ToFp8E4M3(float f) {
  const uint32_t x = Bits(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return 0x7F;
  const uint8_t sign = (x >> 31) ? 0x80 : 0x00;
  const double a = static_cast<double>(FromBits(x & 0x7FFFFFFFu));
  if (a >= 448.0) return static_cast<uint8_t>(sign | 0x7E);
  if (a < 0.015625) return static_cast<uint8_t>(sign | static_cast<uint8_t>(rint(a * 512.0)));
  int e2 = 0;
  (void)frexp(a, &e2);
  const int unbiased = e2 - 1;
  const int units = static_cast<int>(rint(ldexp(a, 3 - unbiased)));
  return static_cast<uint8_t>(sign | (((unbiased + 7) << 3) + (units - 8)));
}

__device__ __forceinline__ float Load(DevPtr t, int64_t i) {
  switch (t.dt) {
    case DType::kF32: return static_cast<const float*>(t.p)[i];
    case DType::kF16: return F16ToF32(static_cast<const uint16_t*>(t.p)[i]);
    case DType::kBF16: return Bf16ToF32(static_cast<const uint16_t*>(t.p)[i]);
    default: return FromBits(0x7FC00000u);  // unreachable: validated upstream
  }
}

__device__ __forceinline__ void Store(DevPtr t, int64_t i, float v) {
  switch (t.dt) {
    case DType::kF32: static_cast<float*>(t.p)[i] = v; break;
    case DType::kF16: static_cast<uint16_t*>(t.p)[i] = F32ToF16(v); break;
    case DType::kBF16: static_cast<uint16_t*>(t.p)[i] = F32ToBf16(v); break;
    default: break;  // unreachable: validated upstream
  }
}

// The value v reads back as after a store to dt.
__device__ __forceinline__ float RoundThrough(DType dt, float v) {
  switch (dt) {
    case DType::kF16: return F16ToF32(F32ToF16(v));
    case DType::kBF16: return Bf16ToF32(F32ToBf16(v));
    default: return v;
  }
}

// exp and tanh: on the host (cuda-emu) the host's libm, as the CPU kernels;
// on the device the double function rounded once to float (<= 0.5 ulp +
// 2^-29 ulp), inside the Bounded model's 1 ulp (exp) / 2 ulp (tanh) per call
// (docs/tolerance.md). The device's own expf (2 ulp) would not be.
__device__ __forceinline__ float ExpF(float x) {
#if defined(__CUDA_ARCH__)
  return static_cast<float>(::exp(static_cast<double>(x)));
#else
  return std::exp(x);
#endif
}
__device__ __forceinline__ float TanhF(float x) {
#if defined(__CUDA_ARCH__)
  return static_cast<float>(::tanh(static_cast<double>(x)));
#else
  return std::tanh(x);
#endif
}
__device__ __forceinline__ float SqrtF(float x) {
#if defined(__CUDA_ARCH__)
  return __fsqrt_rn(x);  // IEEE sqrt, whatever -prec-sqrt says
#else
  return std::sqrt(x);
#endif
}
__device__ __forceinline__ float SiluF(float z) { return z / (1.0f + ExpF(-z)); }
__device__ __forceinline__ float SigmoidF(float z) { return 1.0f / (1.0f + ExpF(-z)); }

// log1p, as exp: the host's libm on cuda-emu (the CPU kernels'
// std::log1p(float)); on the device the double function rounded once
// (<= 0.5 ulp + 2^-29 ulp, inside the Bounded model's 1 ulp for log1pf), not
// the device's log1pf (1 ulp, an f32 FMA polynomial). The softplus of the
// GDN / KDA gates and of Mamba2's dt.
__device__ __forceinline__ float Log1pF(float x) {
#if defined(__CUDA_ARCH__)
  return static_cast<float>(::log1p(static_cast<double>(x)));
#else
  return std::log1p(x);
#endif
}

// softplus with upstream's threshold (cpu/gdn/gdn_gate.h SoftplusGuard20):
// past 20, softplus(x) == x in f32.
__device__ __forceinline__ float SoftplusGuard20(float x) { return x > 20.0f ? x : Log1pF(ExpF(x)); }

}  // namespace vt::VT_CUDA_NS
