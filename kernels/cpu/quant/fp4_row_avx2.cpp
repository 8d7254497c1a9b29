// The avx2 tier of the NVFP4 quantizer: fp4_row.inc over the V256 traits
// (two vectors a group of 16), compiled for avx2 inside its target region
// (cpu/simd/target.h).
#include "cpu/quant/fp4_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>

#include "cpu/quant/fp4_scale_code.h"
#include "vt/codec.h"

VT_TARGET_AVX2_BEGIN
#include "cpu/simd/vec_avx2.h"

namespace vt::cpu::simd {
namespace {

// The codec's F32ToFp4E2M1 per lane, as the avx512 tier (fp4_row_avx512.cpp
// says why counting the failed tests of its ladder is the code): each true
// comparison is an all-ones lane, -1, so subtracting it counts.
__m256i E2m1Codes(__m256 f) {
  const __m256 a = V256::Abs(f);
  __m256i c = _mm256_setzero_si256();
  c = _mm256_sub_epi32(c, _mm256_castps_si256(_mm256_cmp_ps(a, _mm256_set1_ps(0.25f), _CMP_NLE_UQ)));
  c = _mm256_sub_epi32(c, _mm256_castps_si256(_mm256_cmp_ps(a, _mm256_set1_ps(0.75f), _CMP_NLT_UQ)));
  c = _mm256_sub_epi32(c, _mm256_castps_si256(_mm256_cmp_ps(a, _mm256_set1_ps(1.25f), _CMP_NLE_UQ)));
  c = _mm256_sub_epi32(c, _mm256_castps_si256(_mm256_cmp_ps(a, _mm256_set1_ps(1.75f), _CMP_NLT_UQ)));
  c = _mm256_sub_epi32(c, _mm256_castps_si256(_mm256_cmp_ps(a, _mm256_set1_ps(2.5f), _CMP_NLE_UQ)));
  c = _mm256_sub_epi32(c, _mm256_castps_si256(_mm256_cmp_ps(a, _mm256_set1_ps(3.5f), _CMP_NLT_UQ)));
  c = _mm256_sub_epi32(c, _mm256_castps_si256(_mm256_cmp_ps(a, _mm256_set1_ps(5.0f), _CMP_NLE_UQ)));
  const __m256i neg = _mm256_castps_si256(_mm256_cmp_ps(f, _mm256_setzero_ps(), _CMP_LT_OQ));
  const __m256i nonzero = _mm256_xor_si256(_mm256_cmpeq_epi32(c, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
  return _mm256_or_si256(c, _mm256_and_si256(_mm256_and_si256(neg, nonzero), _mm256_set1_epi32(8)));
}

// Lanes 2i and 2i+1 are one 64-bit lane (2i low); t | t >> 28 puts code 2i+1
// into bits 4..7 above code 2i; the low byte of each 64-bit lane is a byte of
// the output (4 of them, read out one by one: no memcpy in a target region).
void StoreNibbles(unsigned char* dst, __m256i codes) {
  const __m256i packed = _mm256_or_si256(codes, _mm256_srli_epi64(codes, 28));
  dst[0] = static_cast<unsigned char>(_mm256_extract_epi64(packed, 0));
  dst[1] = static_cast<unsigned char>(_mm256_extract_epi64(packed, 1));
  dst[2] = static_cast<unsigned char>(_mm256_extract_epi64(packed, 2));
  dst[3] = static_cast<unsigned char>(_mm256_extract_epi64(packed, 3));
}

}  // namespace
}  // namespace vt::cpu::simd

#include "cpu/quant/fp4_row.inc"

namespace vt::cpu::avx2 {

void Fp4QuantRow(const Fp4RowJob& job, const void* x, uint8_t* packed, uint8_t* scales) {
  simd::Fp4QuantRowDispatch<simd::V256>(job, x, packed, scales);
}

}  // namespace vt::cpu::avx2
VT_TARGET_END
#endif
