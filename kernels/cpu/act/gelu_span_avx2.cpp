// The avx2 tier of gelu_and_mul (gelu_tiers.h): gelu_span.inc and the vector
// tanhf (tanhf_vec.inc) over 8 f32 lanes, all-ones int32 lanes as lane masks.
// Compiled for avx2 inside its target region.
#include "cpu/act/gelu_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>

VT_TARGET_AVX2_BEGIN
#include "cpu/simd/vec_avx2.h"

namespace vt::cpu::avx2 {
namespace {

// V256 plus the int32 lanes and masks of the vector tanhf.
struct T256 : simd::V256 {
  using I = __m256i;
  using M = __m256i;  // all ones where true
  static I Bits(F a) { return _mm256_castps_si256(a); }
  static F FromBits(I a) { return _mm256_castsi256_ps(a); }
  static I SetI(int v) { return _mm256_set1_epi32(v); }
  static I AndI(I a, I b) { return _mm256_and_si256(a, b); }
  static I AddI(I a, I b) { return _mm256_add_epi32(a, b); }
  static I SubI(I a, I b) { return _mm256_sub_epi32(a, b); }
  static I Shl23(I a) { return _mm256_slli_epi32(a, 23); }
  static I SrlV(I a, I count) { return _mm256_srlv_epi32(a, count); }  // count > 31: 0
  // a * b + c with the product rounded first (never fused: the scalar code
  // rounds it; -ffp-contract=off keeps the compiler from fusing the two)
  static F MulAdd(F a, F b, F c) { return Add(Mul(a, b), c); }
  static I CvttI(F a) { return _mm256_cvttps_epi32(a); }
  static F CvtF(I a) { return _mm256_cvtepi32_ps(a); }
  static F Neg(F a) { return _mm256_castsi256_ps(_mm256_xor_si256(Bits(a), SetI(INT32_MIN))); }
  static M LtI(I a, I b) { return _mm256_cmpgt_epi32(b, a); }
  static M GtI(I a, I b) { return _mm256_cmpgt_epi32(a, b); }
  static M EqI(I a, I b) { return _mm256_cmpeq_epi32(a, b); }
  static M Or(M a, M b) { return _mm256_or_si256(a, b); }
  static bool Any(M m) { return _mm256_testz_si256(m, m) == 0; }
  static F Sel(M m, F yes, F no) { return _mm256_blendv_ps(no, yes, _mm256_castsi256_ps(m)); }
  static I SelI(M m, I yes, I no) { return _mm256_blendv_epi8(no, yes, m); }
};

#include "cpu/act/tanhf_vec.inc"
#include "cpu/act/gelu_span.inc"

}  // namespace

void GeluMulSpan(const GeluJob& job, const void* gate, const void* up, void* out, int64_t n) {
  GeluMulSpanDispatch<T256>(job, gate, up, out, n);
}

void TanhfSpan(const float* x, float* y, int64_t n) { TanhfSpanT<T256>(x, y, n); }

}  // namespace vt::cpu::avx2
VT_TARGET_END
#endif
