// AVX-512 vector traits for the tier templates (16 f32 lanes). Include only
// inside VT_TARGET_AVX512_BEGIN/END, after <immintrin.h>.
//
// Loads widen f32/f16/bf16 storage to f32 and stores round f32 to f32/bf16
// storage with exactly the scalar codecs' results (vt/codec.h): widening is
// exact; bf16 rounding is the codec's integer recipe (ties to even, NaN
// truncated and quieted) - NOT vcvtneps2bf16, which flushes subnormals.
// A partial vector (n < kW elements) uses masked loads/stores: lanes >= n
// read as +0 and are never written, and nothing past element n-1 is touched.
#pragma once

namespace vt::cpu::simd {

struct V512 {
  using F = __m512;
  static constexpr int kW = 16;

  static F Zero() { return _mm512_setzero_ps(); }
  static F Set1(float v) { return _mm512_set1_ps(v); }
  static F Add(F a, F b) { return _mm512_add_ps(a, b); }
  static F Sub(F a, F b) { return _mm512_sub_ps(a, b); }
  static F Mul(F a, F b) { return _mm512_mul_ps(a, b); }
  static F Div(F a, F b) { return _mm512_div_ps(a, b); }
  static F Sqrt(F a) { return _mm512_sqrt_ps(a); }
  // |a|: the sign bit cleared (std::fabs, NaN included).
  static F Abs(F a) { return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(a), _mm512_set1_epi32(0x7FFFFFFF))); }
  // a > b ? a : b and a < b ? a : b, per lane: b when either is NaN (the
  // instructions' operand rule; the scalar ternaries it stands for).
  static F Max(F a, F b) { return _mm512_max_ps(a, b); }
  static F Min(F a, F b) { return _mm512_min_ps(a, b); }
  // The largest lane of a vector without NaN (max is exact in any order).
  static float MaxLanes(F v) {
    __m256 m = _mm256_max_ps(_mm512_castps512_ps256(v), _mm512_extractf32x8_ps(v, 1));
    __m128 h = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
    h = _mm_max_ps(h, _mm_movehl_ps(h, h));
    h = _mm_max_ss(h, _mm_movehdup_ps(h));
    return _mm_cvtss_f32(h);
  }
  // One step of a sum of squares: acc + v*v, rounded after the product and
  // after the sum (never fused: the portable tier rounds twice).
  static F AddSquare(F acc, F v) { return _mm512_add_ps(acc, _mm512_mul_ps(v, v)); }
  // s[0] + v[0] + v[1] + ... + v[15], left to right, in lane 0 of s: one
  // scalar chain, the lanes brought down by shuffles (off its critical path).
  static __m128 ChainAdd(__m128 s, F v) {
    s = Chain4(s, _mm512_castps512_ps128(v));
    s = Chain4(s, _mm512_extractf32x4_ps(v, 1));
    s = Chain4(s, _mm512_extractf32x4_ps(v, 2));
    s = Chain4(s, _mm512_extractf32x4_ps(v, 3));
    return s;
  }
  // s + p[0] + p[1] + p[2] + p[3] in lane 0, left to right.
  static __m128 Chain4(__m128 s, __m128 p) {
    s = _mm_add_ss(s, p);
    s = _mm_add_ss(s, _mm_movehdup_ps(p));
    s = _mm_add_ss(s, _mm_unpackhi_ps(p, p));
    return _mm_add_ss(s, _mm_shuffle_ps(p, p, 3));
  }
  static void Spill(float* dst, F v) { _mm512_storeu_ps(dst, v); }
  static __mmask16 Mask(int n) { return static_cast<__mmask16>((1u << n) - 1u); }

  static F Load(StF32, const void* p) { return _mm512_loadu_ps(p); }
  static F LoadN(StF32, const void* p, int n) { return _mm512_maskz_loadu_ps(Mask(n), p); }
  static F Load(StF16, const void* p) { return _mm512_cvtph_ps(_mm256_loadu_si256(static_cast<const __m256i*>(p))); }
  static F LoadN(StF16, const void* p, int n) { return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(Mask(n), p)); }
  static F WidenBf16(__m256i h) { return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16)); }
  static F Load(StBF16, const void* p) { return WidenBf16(_mm256_loadu_si256(static_cast<const __m256i*>(p))); }
  static F LoadN(StBF16, const void* p, int n) { return WidenBf16(_mm256_maskz_loadu_epi16(Mask(n), p)); }

  // f32 -> bf16 bits, the codec's recipe: (x + 0x7FFF + lsb) >> 16; NaN:
  // (x >> 16) | 0x40 (truncated, quiet bit forced).
  static __m256i RoundBf16(F v) {
    const __m512i x = _mm512_castps_si512(v);
    const __m512i hi = _mm512_srli_epi32(x, 16);
    const __m512i lsb = _mm512_and_si512(hi, _mm512_set1_epi32(1));
    const __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(x, _mm512_set1_epi32(0x7FFF)), lsb), 16);
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    const __m512i quiet = _mm512_or_si512(hi, _mm512_set1_epi32(0x40));
    return _mm512_cvtepi32_epi16(_mm512_mask_mov_epi32(rounded, nan, quiet));
  }

  static void Store(StF32, void* p, F v) { _mm512_storeu_ps(p, v); }
  static void StoreN(StF32, void* p, F v, int n) { _mm512_mask_storeu_ps(p, Mask(n), v); }
  static void StoreNT(StF32, void* p, F v) { _mm512_stream_ps(static_cast<float*>(p), v); }
  static void Store(StBF16, void* p, F v) { _mm256_storeu_si256(static_cast<__m256i*>(p), RoundBf16(v)); }
  static void StoreN(StBF16, void* p, F v, int n) { _mm256_mask_storeu_epi16(p, Mask(n), RoundBf16(v)); }
  static void StoreNT(StBF16, void* p, F v) { _mm256_stream_si256(static_cast<__m256i*>(p), RoundBf16(v)); }
  // The value a store to bf16 reads back as (RoundThrough in cpu/access.h).
  static F RoundThrough(StBF16, F v) { return WidenBf16(RoundBf16(v)); }
  static F RoundThrough(StF32, F v) { return v; }
  // NT stores need this alignment of the destination.
  static constexpr int kNtAlign = 64;

  // Interleaved pairs (GPT-J RoPE): lo = [x0 y0 .. x7 y7], hi = [x8 y8 .. x15 y15]
  // -> x = [x0 .. x15], y = [y0 .. y15]; Interleave is its exact inverse.
  static void Deinterleave(F lo, F hi, F& x, F& y) {
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    x = _mm512_permutex2var_ps(lo, even, hi);
    y = _mm512_permutex2var_ps(lo, odd, hi);
  }
  static void Interleave(F x, F y, F& lo, F& hi) {
    const __m512i first = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const __m512i second = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    lo = _mm512_permutex2var_ps(x, first, y);
    hi = _mm512_permutex2var_ps(x, second, y);
  }

  // In-place transpose of a 16x16 f32 block: r[i] lane j <- r[j] lane i.
  // always_inline: as a call, the 16-register block goes through memory.
  __attribute__((always_inline)) static void Transpose(F r[16]) {
    __m512 t[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; i += 2) {  // 32-bit interleave of row pairs
      t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
      t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
#pragma GCC unroll 16
    for (int i = 0; i < 16; i += 4) {  // 64-bit interleave: 4x4 blocks per 128-bit lane
      r[i] = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t[i]), _mm512_castps_pd(t[i + 2])));
      r[i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t[i]), _mm512_castps_pd(t[i + 2])));
      r[i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t[i + 1]), _mm512_castps_pd(t[i + 3])));
      r[i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t[i + 1]), _mm512_castps_pd(t[i + 3])));
    }
    // Now r[4a+b] holds, in 128-bit lane q, rows 4a..4a+3 of column 4q+b.
#pragma GCC unroll 16
    for (int b = 0; b < 4; ++b) {  // 128-bit lane exchange between row groups (0,1) and (2,3)
      t[b] = _mm512_shuffle_f32x4(r[b], r[4 + b], 0x88);        // lanes 0,2 of each
      t[4 + b] = _mm512_shuffle_f32x4(r[b], r[4 + b], 0xDD);    // lanes 1,3 of each
      t[8 + b] = _mm512_shuffle_f32x4(r[8 + b], r[12 + b], 0x88);
      t[12 + b] = _mm512_shuffle_f32x4(r[8 + b], r[12 + b], 0xDD);
    }
#pragma GCC unroll 16
    for (int b = 0; b < 4; ++b) {
      r[b] = _mm512_shuffle_f32x4(t[b], t[8 + b], 0x88);         // column b
      r[8 + b] = _mm512_shuffle_f32x4(t[b], t[8 + b], 0xDD);     // column 8+b
      r[4 + b] = _mm512_shuffle_f32x4(t[4 + b], t[12 + b], 0x88);  // column 4+b
      r[12 + b] = _mm512_shuffle_f32x4(t[4 + b], t[12 + b], 0xDD); // column 12+b
    }
  }
};

}  // namespace vt::cpu::simd
