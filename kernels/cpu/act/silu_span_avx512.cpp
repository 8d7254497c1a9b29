// The avx512 tier of silu_and_mul (silu_tiers.h): a vector transcription of
// glibc's expf, then 1 + e, g / that, times up - f32 operations in the
// portable tier's order. Compiled for avx512 inside its target region.
#include "cpu/act/silu_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>

VT_TARGET_AVX512_BEGIN
#include "cpu/simd/vec_avx512.h"

namespace vt::cpu::avx512 {
namespace {

using simd::V512;

// glibc's expf constants (shared with exp2f): N = 32; x * N/ln2 = k + r.
constexpr double kInvLn2N = 0x1.71547652b82fep+0 * 32;
constexpr double kShift = 0x1.8p+52;  // adding it rounds to an integer (ties to even) in the low bits
constexpr double kC0 = 0x1.c6af84b912394p-5 / (32.0 * 32.0 * 32.0);
constexpr double kC1 = 0x1.ebfce50fac4f3p-3 / (32.0 * 32.0);
constexpr double kC2 = 0x1.62e42ff0c52d6p-1 / 32.0;

struct ExpTable {
  __m512i lo_a, lo_b, hi_a, hi_b;  // entries 0-7, 8-15, 16-23, 24-31
  // t null: zeros (the span then never takes the vector path).
  explicit ExpTable(const uint64_t* t)
      : lo_a(Part(t, 0)), lo_b(Part(t, 8)), hi_a(Part(t, 16)), hi_b(Part(t, 24)) {}
  static __m512i Part(const uint64_t* t, int at) {
    return t != nullptr ? _mm512_loadu_si512(t + at) : _mm512_setzero_si512();
  }
};

// expf of 8 floats widened to double: k = round(x * N/ln2), r the rest,
// 2^(k/N) from the table entry k % N with k / N added to its exponent,
// times the cubic (C0 r + C1) r^2 + (C2 r + 1), rounded once to f32.
__m256 ExpHalf(__m512d xd, const ExpTable& tab) {
  const __m512d z = _mm512_mul_pd(xd, _mm512_set1_pd(kInvLn2N));
  __m512d kd = _mm512_add_pd(z, _mm512_set1_pd(kShift));
  const __m512i ki = _mm512_castpd_si512(kd);
  kd = _mm512_sub_pd(kd, _mm512_set1_pd(kShift));
  // r = x * N/ln2 - k from the EXACT product: glibc's x86-64 expf is built
  // with FMA contraction (its ifunc variant for FMA CPUs), which fuses this
  // subtraction; the unfused z - kd differs on 2 of the 2^32 inputs. Fused
  // here and nowhere else, this matches that expf on every main-path input
  // (checked exhaustively, docs/performance.md; and at start-up).
  const __m512d r = _mm512_fmsub_pd(xd, _mm512_set1_pd(kInvLn2N), kd);
  const __m512i lo = _mm512_permutex2var_epi64(tab.lo_a, ki, tab.lo_b);  // index bits 0-3
  const __m512i hi = _mm512_permutex2var_epi64(tab.hi_a, ki, tab.hi_b);
  __m512i t = _mm512_mask_mov_epi64(lo, _mm512_test_epi64_mask(ki, _mm512_set1_epi64(16)), hi);
  t = _mm512_add_epi64(t, _mm512_slli_epi64(ki, 47));
  const __m512d s = _mm512_castsi512_pd(t);
  const __m512d p = _mm512_add_pd(_mm512_mul_pd(_mm512_set1_pd(kC0), r), _mm512_set1_pd(kC1));
  const __m512d r2 = _mm512_mul_pd(r, r);
  __m512d y = _mm512_add_pd(_mm512_mul_pd(_mm512_set1_pd(kC2), r), _mm512_set1_pd(1.0));
  y = _mm512_add_pd(_mm512_mul_pd(p, r2), y);
  return _mm512_cvtpd_ps(_mm512_mul_pd(y, s));
}

__m512 Expf(__m512 x, const ExpTable& tab) {
  const __m256 lo = ExpHalf(_mm512_cvtps_pd(_mm512_castps512_ps256(x)), tab);
  const __m256 hi = ExpHalf(_mm512_cvtps_pd(_mm512_extractf32x8_ps(x, 1)), tab);
  return _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1);
}

// Lanes whose expf leaves the main path: |x| >= 88 (top 12 bits of |x| at
// or above 88's), inf and NaN.
__mmask16 OffMainPath(__m512 x) {
  const __m512i top = _mm512_and_si512(_mm512_srli_epi32(_mm512_castps_si512(x), 20), _mm512_set1_epi32(0x7FF));
  return _mm512_cmpge_epu32_mask(top, _mm512_set1_epi32(0x42B));
}

template <class X, class O>
void SiluMulSpanT(const SiluJob& j, const void* gv, const void* uv, void* ov, int64_t n) {
  const auto* g = static_cast<const unsigned char*>(gv);
  const auto* u = static_cast<const unsigned char*>(uv);
  auto* out = static_cast<unsigned char*>(ov);
  constexpr int kX = simd::kStBytes<X>, kO = simd::kStBytes<O>;
  const bool nt = j.stream_out && reinterpret_cast<uintptr_t>(out) % V512::kNtAlign == 0;
  const ExpTable tab(j.exp_tab);
  for (int64_t k = 0; k < n; k += 16) {
    const int m = n - k < 16 ? static_cast<int>(n - k) : 16;
    const __m512 gate = m == 16 ? V512::Load(X{}, g + k * kX) : V512::LoadN(X{}, g + k * kX, m);
    const __m512 up = m == 16 ? V512::Load(X{}, u + k * kX) : V512::LoadN(X{}, u + k * kX, m);
    __m512 o;
    if (j.exp_tab == nullptr || OffMainPath(gate) != 0) {
      float gs[16], us[16], os[16];
      V512::Spill(gs, gate);
      V512::Spill(us, up);
      SiluMulScalar(gs, us, os, 16);
      o = _mm512_loadu_ps(os);
    } else {
      const __m512 e = Expf(_mm512_xor_ps(gate, _mm512_set1_ps(-0.0f)), tab);  // expf(-g)
      o = V512::Mul(V512::Div(gate, V512::Add(V512::Set1(1.0f), e)), up);
    }
    if (m < 16) {
      V512::StoreN(O{}, out + k * kO, o, m);
    } else if (nt) {
      V512::StoreNT(O{}, out + k * kO, o);
    } else {
      V512::Store(O{}, out + k * kO, o);
    }
  }
  if (nt) _mm_sfence();  // non-temporal stores are weakly ordered: fence before the pool's join
}

template <class X>
void SiluWithX(const SiluJob& j, const void* g, const void* u, void* o, int64_t n) {
  if (j.out_dt == DType::kBF16) {
    SiluMulSpanT<X, simd::StBF16>(j, g, u, o, n);
  } else {
    SiluMulSpanT<X, simd::StF32>(j, g, u, o, n);
  }
}

}  // namespace

void SiluMulSpan(const SiluJob& job, const void* gate, const void* up, void* out, int64_t n) {
  switch (job.x_dt) {
    case DType::kF16: SiluWithX<simd::StF16>(job, gate, up, out, n); break;
    case DType::kBF16: SiluWithX<simd::StBF16>(job, gate, up, out, n); break;
    default: SiluWithX<simd::StF32>(job, gate, up, out, n); break;
  }
}

void ExpfSpan(const uint64_t* tab, const float* x, float* y, int64_t n) {
  const ExpTable t(tab);
  for (int64_t k = 0; k < n; k += 16) {
    const int m = n - k < 16 ? static_cast<int>(n - k) : 16;
    _mm512_mask_storeu_ps(y + k, V512::Mask(m), Expf(_mm512_maskz_loadu_ps(V512::Mask(m), x + k), t));
  }
}

}  // namespace vt::cpu::avx512
VT_TARGET_END
#endif
