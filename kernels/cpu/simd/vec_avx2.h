// AVX2 (+F16C) vector traits for the tier templates (8 f32 lanes). Include
// only inside VT_TARGET_AVX2_BEGIN/END, after <immintrin.h>.
//
// Same contract as V512: loads widen exactly, stores round with the scalar
// codecs' recipe. AVX2 has no masked 16-bit loads/stores, so a partial vector
// (n < kW elements) goes through a zeroed stack buffer with memcpy-like byte
// copies of exactly n elements: nothing past element n-1 is read or written.
#pragma once

namespace vt::cpu::simd {

struct V256 {
  using F = __m256;
  static constexpr int kW = 8;

  static F Zero() { return _mm256_setzero_ps(); }
  static F Set1(float v) { return _mm256_set1_ps(v); }
  static F Add(F a, F b) { return _mm256_add_ps(a, b); }
  static F Sub(F a, F b) { return _mm256_sub_ps(a, b); }
  static F Mul(F a, F b) { return _mm256_mul_ps(a, b); }
  static F Div(F a, F b) { return _mm256_div_ps(a, b); }
  static F Sqrt(F a) { return _mm256_sqrt_ps(a); }
  // |a|: the sign bit cleared (std::fabs, NaN included).
  static F Abs(F a) { return _mm256_castsi256_ps(_mm256_and_si256(_mm256_castps_si256(a), _mm256_set1_epi32(0x7FFFFFFF))); }
  // a > b ? a : b and a < b ? a : b, per lane: b when either is NaN.
  static F Max(F a, F b) { return _mm256_max_ps(a, b); }
  static F Min(F a, F b) { return _mm256_min_ps(a, b); }
  // The largest lane of a vector without NaN (max is exact in any order).
  static float MaxLanes(F v) {
    __m128 h = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    h = _mm_max_ps(h, _mm_movehl_ps(h, h));
    h = _mm_max_ss(h, _mm_movehdup_ps(h));
    return _mm_cvtss_f32(h);
  }
  // One step of a sum of squares: acc + v*v, rounded after the product and
  // after the sum (never fused: the portable tier rounds twice).
  static F AddSquare(F acc, F v) { return _mm256_add_ps(acc, _mm256_mul_ps(v, v)); }
  // s[0] + v[0] + ... + v[7], left to right, in lane 0 of s (see V512).
  static __m128 ChainAdd(__m128 s, F v) {
    s = Chain4(s, _mm256_castps256_ps128(v));
    s = Chain4(s, _mm256_extractf128_ps(v, 1));
    return s;
  }
  static __m128 Chain4(__m128 s, __m128 p) {
    s = _mm_add_ss(s, p);
    s = _mm_add_ss(s, _mm_movehdup_ps(p));
    s = _mm_add_ss(s, _mm_unpackhi_ps(p, p));
    return _mm_add_ss(s, _mm_shuffle_ps(p, p, 3));
  }
  static void Spill(float* dst, F v) { _mm256_storeu_ps(dst, v); }

  // n elements of `bytes` each from p into a zeroed 32-byte buffer.
  static void CopyIn(unsigned char* buf, const void* p, int n, int bytes) {
    const auto* src = static_cast<const unsigned char*>(p);
    for (int i = 0; i < 32; ++i) buf[i] = 0;
    for (int i = 0; i < n * bytes; ++i) buf[i] = src[i];
  }
  static void CopyOut(void* p, const unsigned char* buf, int n, int bytes) {
    auto* dst = static_cast<unsigned char*>(p);
    for (int i = 0; i < n * bytes; ++i) dst[i] = buf[i];
  }

  static F Load(StF32, const void* p) { return _mm256_loadu_ps(static_cast<const float*>(p)); }
  static F LoadN(StF32, const void* p, int n) {
    alignas(32) unsigned char buf[32];
    CopyIn(buf, p, n, 4);
    return _mm256_load_ps(reinterpret_cast<const float*>(buf));
  }
  static F Load(StF16, const void* p) { return _mm256_cvtph_ps(_mm_loadu_si128(static_cast<const __m128i*>(p))); }
  static F LoadN(StF16, const void* p, int n) {
    alignas(32) unsigned char buf[32];
    CopyIn(buf, p, n, 2);
    return _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(buf)));
  }
  static F WidenBf16(__m128i h) { return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16)); }
  static F Load(StBF16, const void* p) { return WidenBf16(_mm_loadu_si128(static_cast<const __m128i*>(p))); }
  static F LoadN(StBF16, const void* p, int n) {
    alignas(32) unsigned char buf[32];
    CopyIn(buf, p, n, 2);
    return WidenBf16(_mm_load_si128(reinterpret_cast<const __m128i*>(buf)));
  }

  // f32 -> bf16 bits, the codec's recipe (see V512::RoundBf16).
  static __m128i RoundBf16(F v) {
    const __m256i x = _mm256_castps_si256(v);
    const __m256i hi = _mm256_srli_epi32(x, 16);
    const __m256i lsb = _mm256_and_si256(hi, _mm256_set1_epi32(1));
    const __m256i rounded =
        _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(x, _mm256_set1_epi32(0x7FFF)), lsb), 16);
    const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    const __m256i quiet = _mm256_or_si256(hi, _mm256_set1_epi32(0x40));
    const __m256i bits = _mm256_blendv_epi8(rounded, quiet, nan);
    // Every lane is <= 0xFFFF, so the unsigned-saturating pack is exact.
    return _mm_packus_epi32(_mm256_castsi256_si128(bits), _mm256_extracti128_si256(bits, 1));
  }

  static void Store(StF32, void* p, F v) { _mm256_storeu_ps(static_cast<float*>(p), v); }
  static void StoreN(StF32, void* p, F v, int n) {
    alignas(32) unsigned char buf[32];
    _mm256_store_ps(reinterpret_cast<float*>(buf), v);
    CopyOut(p, buf, n, 4);
  }
  static void StoreNT(StF32, void* p, F v) { _mm256_stream_ps(static_cast<float*>(p), v); }
  static void Store(StBF16, void* p, F v) { _mm_storeu_si128(static_cast<__m128i*>(p), RoundBf16(v)); }
  static void StoreN(StBF16, void* p, F v, int n) {
    alignas(32) unsigned char buf[32];
    _mm_store_si128(reinterpret_cast<__m128i*>(buf), RoundBf16(v));
    CopyOut(p, buf, n, 2);
  }
  static void StoreNT(StBF16, void* p, F v) { _mm_stream_si128(static_cast<__m128i*>(p), RoundBf16(v)); }
  static F RoundThrough(StBF16, F v) { return WidenBf16(RoundBf16(v)); }
  static F RoundThrough(StF32, F v) { return v; }
  static constexpr int kNtAlign = 32;

  // Interleaved pairs (GPT-J RoPE): lo = [x0 y0 .. x3 y3], hi = [x4 y4 .. x7 y7]
  // -> x = [x0 .. x7], y = [y0 .. y7]; Interleave is its exact inverse.
  // shuffle_ps works per 128-bit half, giving [x0 x1 x4 x5 | x2 x3 x6 x7];
  // the 64-bit permute (0, 2, 1, 3) puts the halves' pairs in order.
  static void Deinterleave(F lo, F hi, F& x, F& y) {
    x = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(lo, hi, 0x88)), 0xD8));
    y = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(lo, hi, 0xDD)), 0xD8));
  }
  static void Interleave(F x, F y, F& lo, F& hi) {
    const F a = _mm256_unpacklo_ps(x, y);  // [x0 y0 x1 y1 | x4 y4 x5 y5]
    const F b = _mm256_unpackhi_ps(x, y);  // [x2 y2 x3 y3 | x6 y6 x7 y7]
    lo = _mm256_permute2f128_ps(a, b, 0x20);
    hi = _mm256_permute2f128_ps(a, b, 0x31);
  }

  // In-place transpose of an 8x8 f32 block: r[i] lane j <- r[j] lane i.
  __attribute__((always_inline)) static void Transpose(F r[8]) {
    __m256 t[8];
#pragma GCC unroll 16
    for (int i = 0; i < 8; i += 2) {  // 32-bit interleave of row pairs
      t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
      t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
#pragma GCC unroll 16
    for (int i = 0; i < 8; i += 4) {  // 4x4 blocks per 128-bit lane
      r[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
      r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xEE);
      r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
      r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
    }
    // r[4a+b] holds, in 128-bit lane q, rows 4a..4a+3 of column 4q+b.
#pragma GCC unroll 16
    for (int b = 0; b < 4; ++b) {
      t[b] = _mm256_permute2f128_ps(r[b], r[4 + b], 0x20);      // column b
      t[4 + b] = _mm256_permute2f128_ps(r[b], r[4 + b], 0x31);  // column 4+b
    }
#pragma GCC unroll 16
    for (int i = 0; i < 8; ++i) r[i] = t[i];
  }
};

}  // namespace vt::cpu::simd
