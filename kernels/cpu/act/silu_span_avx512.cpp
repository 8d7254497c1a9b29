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

#include "cpu/act/expf_avx512.inc"

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
