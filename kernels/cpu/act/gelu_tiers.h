// The vector tiers of gelu_and_mul: out = (0.5 * g) * (1 + tanhf(inner)) * up
// with inner = k0 * (g + ((k1 * g) * g) * g), every step an f32 IEEE
// operation in the portable tier's order. The portable tier calls the C
// library's tanhf, so the tiers carry a vector transcription of glibc 2.36's
// tanhf (the fdlibm algorithm on top of its expm1f: the same regimes as lane
// masks, the same constants, the same operation order; tanhf_vec.inc). That
// ties it to the glibc build, so each tier checks its transcription once per
// process against the loaded tanhf (VectorTanhfAgrees); when the check fails
// the tier computes every element with the scalar tanhf (still its bytes,
// only slower). Unlike the silu expf it needs no double lanes, 64-bit
// permutes or FMA, so the avx2 tier holds the bytes too.
#pragma once

#include <cmath>
#include <cstdint>

#include "vt/dtype.h"
#include "vt/isa.h"

namespace vt::cpu {

struct GeluJob {
  DType x_dt = DType::kF32;    // f32/f16/bf16
  DType out_dt = DType::kF32;  // f32/bf16
  bool vector_tanh = false;    // VectorTanhfAgrees(tier); false: the scalar tanhf for every element
  bool stream_out = false;     // non-temporal stores (large outputs only)
};

// The gelu constants of the portable tier (held as their f32 roundings).
inline constexpr float kGeluSqrt2OverPi = 0.7978845608028654f;
inline constexpr float kGeluCubic = 0.044715f;

// True when `tier`'s vector tanhf gives this process's tanhf bits on every
// self-check input (regime edges, a grid, a hashed spread); checked once per
// tier (thread-safe). False for a tier the CPU does not run.
bool VectorTanhfAgrees(Isa tier);

// The portable tier's element: gelu_tanh(g) * up with the scalar tanhf, in
// the association the contract fixes. Called from portable code only.
inline float GeluMulF32(float g, float up) {
  const float inner = kGeluSqrt2OverPi * (g + kGeluCubic * g * g * g);
  return 0.5f * g * (1.0f + std::tanh(inner)) * up;
}
// o[k] = GeluMulF32(g[k], u[k]) (compiled portable, callable from a tier's region).
void GeluMulScalar(const float* g, const float* u, float* o, int n);

// GeluMulSpan of `tier` (kAvx2 or kAvx512, one the CPU supports):
// out[k] = gelu_tanh(gate[k]) * up[k], k in [0, n); storage per job.
void GeluMulSpanOn(Isa tier, const GeluJob& job, const void* gate, const void* up, void* out, int64_t n);
// y[k] = `tier`'s vector tanhf(x[k]), every input (the checks' entry).
void TanhfSpanOn(Isa tier, const float* x, float* y, int64_t n);

namespace avx512 {
void GeluMulSpan(const GeluJob& job, const void* gate, const void* up, void* out, int64_t n);
void TanhfSpan(const float* x, float* y, int64_t n);
}  // namespace avx512
namespace avx2 {
void GeluMulSpan(const GeluJob& job, const void* gate, const void* up, void* out, int64_t n);
void TanhfSpan(const float* x, float* y, int64_t n);
}  // namespace avx2

}  // namespace vt::cpu
