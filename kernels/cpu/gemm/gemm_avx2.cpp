// The AVX2 tier of the GEMM engine (gemm_simd.h over 8-lane vectors). Only
// this file is compiled for AVX2 (the target pragma below, after every
// header), so the rest of the build stays portable; ComputeBlock calls it only
// when the call's tier is avx2, which needs a CPU that runs it. No "fma" in
// the target: the tier multiplies, then adds.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "cpu/gemm/gemm_tile.h"
#include "vt/codec.h"
#include "vt/isa.h"

#pragma GCC push_options
#pragma GCC target("avx2,f16c")

namespace vt::cpu::gemm {
namespace {

struct V256 {
  using T = __m256;
  static constexpr int kLanes = 8;
  static T Zero() { return _mm256_setzero_ps(); }
  static T Load(const float* p) { return _mm256_loadu_ps(p); }
  static void Store(float* p, T v) { _mm256_storeu_ps(p, v); }
  static T Set1(float x) { return _mm256_set1_ps(x); }
  // c + a * b as the seed rounds it: the product, then the sum - never fused.
  // Which payload comes out where two NaNs meet is the operand order the
  // compiler picks (it commutes adds freely): the portable build keeps the
  // product's, this code the sum's; the isa mode holds NaN-ness there, not
  // the payload (docs/isa.md).
  static T MulAdd(T c, T a, T b) { return _mm256_add_ps(c, _mm256_mul_ps(a, b)); }
  // bf16 -> f32 is exact: the bf16 bits become the top half of each lane.
  static T FromBf16(__m128i h) { return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16)); }
  // 8 elements of dtype B (f32 or bf16) from element e of base.
  template <DType B>
  static T LoadAs(const unsigned char* base, int64_t e) {
    if constexpr (B == DType::kF32) {
      return _mm256_loadu_ps(reinterpret_cast<const float*>(base + e * 4));
    } else {
      return FromBf16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(base + e * 2)));
    }
  }
  // r[q] lane c becomes r[c] lane q (an 8 x 8 transpose in registers):
  // pairs, then quads inside each 128-bit half, then the halves.
  __attribute__((always_inline)) static void Transpose(T r[8]) {
    T t[8], u[8];
#pragma GCC unroll 16
    for (int i = 0; i < 4; ++i) {
      t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);      // per half: a0 b0 a1 b1
      t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);  // per half: a2 b2 a3 b3
    }
    // u[4i + e], half j: rows 4i..4i+3 of column 4j + e.
#pragma GCC unroll 16
    for (int i = 0; i < 2; ++i) {
      u[4 * i + 0] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
      u[4 * i + 1] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
      u[4 * i + 2] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
      u[4 * i + 3] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
    }
#pragma GCC unroll 16
    for (int e = 0; e < 4; ++e) {
      r[e] = _mm256_permute2f128_ps(u[e], u[4 + e], 0x20);      // low halves: column e
      r[4 + e] = _mm256_permute2f128_ps(u[e], u[4 + e], 0x31);  // high halves: column 4 + e
    }
  }
  // The first n (< 8) of them, the other lanes +0; lanes past n are not read.
  template <DType B>
  static T LoadPartial(const unsigned char* base, int64_t e, int n) {
    if constexpr (B == DType::kF32) {
      const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
      const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(n), lane);
      return _mm256_maskload_ps(reinterpret_cast<const float*>(base + e * 4), mask);
    } else {
      // No 16-bit masked load in AVX2: the n elements through a zeroed buffer.
      uint16_t h[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      __builtin_memcpy(h, base + e * 2, static_cast<unsigned>(n) * 2u);
      return FromBf16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h)));
    }
  }
};

}  // namespace
}  // namespace vt::cpu::gemm

#include "cpu/gemm/gemm_simd.h"

namespace vt::cpu::gemm {

void ComputeBlockAvx2(const Problem& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  CountTierRun(Isa::kAvx2);
  simd::ComputeBlockImpl<V256>(p, r0, r1, c0, c1);
}

}  // namespace vt::cpu::gemm

#pragma GCC pop_options
