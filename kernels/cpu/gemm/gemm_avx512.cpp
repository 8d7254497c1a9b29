// The AVX-512 tier of the GEMM engine (gemm_simd.h over 16-lane vectors).
// Only this file is compiled for AVX-512 (the target pragma below, after
// every header), so the rest of the build stays portable; ComputeBlock calls
// it only when the call's tier is avx512, which needs a CPU that runs it.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "cpu/gemm/gemm_tile.h"
#include "vt/codec.h"
#include "vt/isa.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl")

namespace vt::cpu::gemm {
namespace {

struct V512 {
  using T = __m512;
  static constexpr int kLanes = 16;
  static T Zero() { return _mm512_setzero_ps(); }
  static T Load(const float* p) { return _mm512_loadu_ps(p); }
  static void Store(float* p, T v) { _mm512_storeu_ps(p, v); }
  static T Set1(float x) { return _mm512_set1_ps(x); }
  // c + a * b as the seed rounds it: the product, then the sum - never fused.
  // Which payload comes out where two NaNs meet is the operand order the
  // compiler picks (it commutes adds freely): the portable build keeps the
  // product's, this code the sum's; the isa mode holds NaN-ness there, not
  // the payload (docs/isa.md).
  static T MulAdd(T c, T a, T b) { return _mm512_add_ps(c, _mm512_mul_ps(a, b)); }
  // bf16 -> f32 is exact: the bf16 bits become the top half of each lane.
  static T FromBf16(__m256i h) { return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16)); }
  // 16 elements of dtype B (f32 or bf16) from element e of base.
  template <DType B>
  static T LoadAs(const unsigned char* base, int64_t e) {
    if constexpr (B == DType::kF32) {
      return _mm512_loadu_ps(base + e * 4);
    } else {
      return FromBf16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + e * 2)));
    }
  }
  // r[q] lane c becomes r[c] lane q (a 16 x 16 transpose in registers):
  // pairs, then quads inside each 128-bit block, then the 4 x 4 blocks.
  __attribute__((always_inline)) static void Transpose(T r[16]) {
    T t[16], u[16];
#pragma GCC unroll 16
    for (int i = 0; i < 8; ++i) {
      t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);      // per block: a0 b0 a1 b1
      t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);  // per block: a2 b2 a3 b3
    }
    // u[4i + e], block j: rows 4i..4i+3 of column 4j + e.
#pragma GCC unroll 16
    for (int i = 0; i < 4; ++i) {
      u[4 * i + 0] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
      u[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
      u[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
      u[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
    }
    // Column 4j + e gathers block j of u[e], u[4 + e], u[8 + e], u[12 + e].
#pragma GCC unroll 16
    for (int e = 0; e < 4; ++e) {
      const T v0 = _mm512_shuffle_f32x4(u[e], u[4 + e], 0x44);      // A0 A1 B0 B1
      const T v1 = _mm512_shuffle_f32x4(u[e], u[4 + e], 0xEE);      // A2 A3 B2 B3
      const T v2 = _mm512_shuffle_f32x4(u[8 + e], u[12 + e], 0x44);  // C0 C1 D0 D1
      const T v3 = _mm512_shuffle_f32x4(u[8 + e], u[12 + e], 0xEE);  // C2 C3 D2 D3
      r[e] = _mm512_shuffle_f32x4(v0, v2, 0x88);                      // A0 B0 C0 D0
      r[4 + e] = _mm512_shuffle_f32x4(v0, v2, 0xDD);                  // A1 B1 C1 D1
      r[8 + e] = _mm512_shuffle_f32x4(v1, v3, 0x88);
      r[12 + e] = _mm512_shuffle_f32x4(v1, v3, 0xDD);
    }
  }
  // The first n (< 16) of them, the other lanes +0; masked lanes are not read.
  template <DType B>
  static T LoadPartial(const unsigned char* base, int64_t e, int n) {
    const __mmask16 m = static_cast<__mmask16>((1u << n) - 1u);
    if constexpr (B == DType::kF32) {
      return _mm512_maskz_loadu_ps(m, base + e * 4);
    } else {
      return FromBf16(_mm256_maskz_loadu_epi16(m, base + e * 2));
    }
  }
};

}  // namespace
}  // namespace vt::cpu::gemm

#include "cpu/gemm/gemm_simd.h"

namespace vt::cpu::gemm {

void ComputeBlockAvx512(const Problem& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  CountTierRun(Isa::kAvx512);
  simd::ComputeBlockImpl<V512>(p, r0, r1, c0, c1);
}

}  // namespace vt::cpu::gemm

#pragma GCC pop_options
