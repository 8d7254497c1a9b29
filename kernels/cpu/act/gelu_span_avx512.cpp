// The avx512 tier of gelu_and_mul (gelu_tiers.h): gelu_span.inc and the
// vector tanhf (tanhf_vec.inc) over 16 f32 lanes, mask registers as lane
// masks. Compiled for avx512 inside its target region.
#include "cpu/act/gelu_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>

VT_TARGET_AVX512_BEGIN
#include "cpu/simd/vec_avx512.h"

namespace vt::cpu::avx512 {
namespace {

// V512 plus the int32 lanes and masks of the vector tanhf.
struct T512 : simd::V512 {
  using I = __m512i;
  using M = __mmask16;
  static I Bits(F a) { return _mm512_castps_si512(a); }
  static F FromBits(I a) { return _mm512_castsi512_ps(a); }
  static I SetI(int v) { return _mm512_set1_epi32(v); }
  static I AndI(I a, I b) { return _mm512_and_si512(a, b); }
  static I AddI(I a, I b) { return _mm512_add_epi32(a, b); }
  static I SubI(I a, I b) { return _mm512_sub_epi32(a, b); }
  static I Shl23(I a) { return _mm512_slli_epi32(a, 23); }
  static I SrlV(I a, I count) { return _mm512_srlv_epi32(a, count); }  // count > 31: 0
  // a * b + c with the product rounded first (never fused: the scalar code
  // rounds it; -ffp-contract=off keeps the compiler from fusing the two)
  static F MulAdd(F a, F b, F c) { return Add(Mul(a, b), c); }
  static I CvttI(F a) { return _mm512_cvttps_epi32(a); }
  static F CvtF(I a) { return _mm512_cvtepi32_ps(a); }
  static F Neg(F a) { return _mm512_castsi512_ps(_mm512_xor_si512(Bits(a), SetI(INT32_MIN))); }
  static M LtI(I a, I b) { return _mm512_cmplt_epi32_mask(a, b); }
  static M GtI(I a, I b) { return _mm512_cmpgt_epi32_mask(a, b); }
  static M EqI(I a, I b) { return _mm512_cmpeq_epi32_mask(a, b); }
  static M Or(M a, M b) { return static_cast<M>(a | b); }
  static bool Any(M m) { return m != 0; }
  static F Sel(M m, F yes, F no) { return _mm512_mask_blend_ps(m, no, yes); }
  static I SelI(M m, I yes, I no) { return _mm512_mask_blend_epi32(m, no, yes); }
};

#include "cpu/act/tanhf_vec.inc"
#include "cpu/act/gelu_span.inc"

}  // namespace

void GeluMulSpan(const GeluJob& job, const void* gate, const void* up, void* out, int64_t n) {
  GeluMulSpanDispatch<T512>(job, gate, up, out, n);
}

void TanhfSpan(const float* x, float* y, int64_t n) { TanhfSpanT<T512>(x, y, n); }

}  // namespace vt::cpu::avx512
VT_TARGET_END
#endif
