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
