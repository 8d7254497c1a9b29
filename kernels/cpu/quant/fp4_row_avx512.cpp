// The avx512 tier of the NVFP4 quantizer: fp4_row.inc over the V512 traits
// (one vector is one group of 16), compiled for avx512 inside its target
// region (cpu/simd/target.h).
#include "cpu/quant/fp4_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>

#include "cpu/quant/fp4_scale_code.h"
#include "vt/codec.h"

VT_TARGET_AVX512_BEGIN
#include "cpu/simd/vec_avx512.h"

namespace vt::cpu::simd {
namespace {

// The codec's F32ToFp4E2M1 per lane. Its ladder (<= 0.25 -> 0, < 0.75 -> 1,
// <= 1.25 -> 2, < 1.75 -> 3, <= 2.5 -> 4, < 3.5 -> 5, <= 5 -> 6, else 7) is
// monotone in |f|, so the code is the number of its tests |f| fails; written
// as "not <=" / "not <" (unordered) a NaN fails all seven: 7, as in the
// codec. The sign bit (f < 0) only on a nonzero code (never a -0 code).
__m512i E2m1Codes(__m512 f) {
  const __m512 a = V512::Abs(f);
  const __m512i one = _mm512_set1_epi32(1);
  __m512i c = _mm512_setzero_si512();
  c = _mm512_mask_add_epi32(c, _mm512_cmp_ps_mask(a, _mm512_set1_ps(0.25f), _CMP_NLE_UQ), c, one);
  c = _mm512_mask_add_epi32(c, _mm512_cmp_ps_mask(a, _mm512_set1_ps(0.75f), _CMP_NLT_UQ), c, one);
  c = _mm512_mask_add_epi32(c, _mm512_cmp_ps_mask(a, _mm512_set1_ps(1.25f), _CMP_NLE_UQ), c, one);
  c = _mm512_mask_add_epi32(c, _mm512_cmp_ps_mask(a, _mm512_set1_ps(1.75f), _CMP_NLT_UQ), c, one);
  c = _mm512_mask_add_epi32(c, _mm512_cmp_ps_mask(a, _mm512_set1_ps(2.5f), _CMP_NLE_UQ), c, one);
  c = _mm512_mask_add_epi32(c, _mm512_cmp_ps_mask(a, _mm512_set1_ps(3.5f), _CMP_NLT_UQ), c, one);
  c = _mm512_mask_add_epi32(c, _mm512_cmp_ps_mask(a, _mm512_set1_ps(5.0f), _CMP_NLE_UQ), c, one);
  const __mmask16 neg = _mm512_cmp_ps_mask(f, _mm512_setzero_ps(), _CMP_LT_OQ) & _mm512_test_epi32_mask(c, c);
  return _mm512_mask_or_epi32(c, neg, c, _mm512_set1_epi32(8));
}

// Lanes 2i and 2i+1 are one 64-bit lane (2i low); t | t >> 28 puts code 2i+1
// into bits 4..7 above code 2i; vpmovqb keeps each lane's low byte.
void StoreNibbles(unsigned char* dst, __m512i codes) {
  const __m512i packed = _mm512_or_si512(codes, _mm512_srli_epi64(codes, 28));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(dst), _mm512_cvtepi64_epi8(packed));
}

}  // namespace
}  // namespace vt::cpu::simd

#include "cpu/quant/fp4_row.inc"

namespace vt::cpu::avx512 {

void Fp4QuantRow(const Fp4RowJob& job, const void* x, uint8_t* packed, uint8_t* scales) {
  simd::Fp4QuantRowDispatch<simd::V512>(job, x, packed, scales);
}

}  // namespace vt::cpu::avx512
VT_TARGET_END
#endif
