// The avx512 tier of rms_norm_gated (gated_tiers.h): the row-norm panel's
// sums (norm_tiers.h, called with no output), then per element
// ((x * inv) * w) * act(gate) with act from the silu tier's vector expf -
// f32 operations in the portable tier's order; for the fp8 variant, the
// bf16 rounding, the scale product and the e4m3 codes in vector integer
// steps. Compiled
// for avx512 inside its target region.
#include "cpu/act/silu_tiers.h"
#include "cpu/norm/gated_tiers.h"
#include "cpu/norm/norm_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

VT_TARGET_AVX512_BEGIN
#include "cpu/simd/vec_avx512.h"
#include "cpu/norm/norm_panel.inc"

namespace vt::cpu::avx512 {
namespace {

using simd::V512;
using F = V512::F;

#include "cpu/act/expf_avx512.inc"

// act(z) for 16 gates: silu z / (1 + expf(-z)) or sigmoid 1 / (1 + expf(-z)).
// A vector with any gate off the expf's main path (or no checked table)
// takes the scalar expf for all 16 (compiled portable, silu_tiers.cpp).
F GateAct(const GatedRowsJob& j, const ExpTable& tab, F z) {
  if (j.exp_tab == nullptr || OffMainPath(z) != 0) {
    float zs[16], as[16];
    V512::Spill(zs, z);
    GateActScalar(zs, as, 16, j.sigmoid);
    return _mm512_loadu_ps(as);
  }
  const F den = V512::Add(V512::Set1(1.0f), Expf(_mm512_xor_ps(z, V512::Set1(-0.0f)), tab));
  return V512::Div(j.sigmoid ? V512::Set1(1.0f) : z, den);
}

// The fp8 output (rms_norm_gated_quant_fp8): one byte per element.
struct StFp8 {};
template <class O>
constexpr int kOutBytes = std::is_same_v<O, StFp8> ? 1 : simd::kStBytes<O>;

// The e4m3 codes of 16 f32 lanes, the codec's byte (F32ToFp8E4M3) in
// integer steps: NaN 0x7F; |q| >= 448 (inf too) sign | 0x7E; |q| < 2^-6
// (the e4m3 subnormals) sign | round(|q| * 512) - the product is exact and
// vcvtps2dq rounds to nearest even, as the codec's nearbyint of the same
// value; else the quantizer tiers' rounding (cpu/quant/fp4_scale_code.h):
// exponent and top 3 mantissa bits rounded to nearest even on the 20 bits
// below, the exponent rebased from 127 to 7.
__m128i Fp8Codes(F q) {
  const __m512i bits = _mm512_castps_si512(q);
  const __m512i sign = _mm512_and_si512(_mm512_srli_epi32(bits, 24), _mm512_set1_epi32(0x80));
  const __m512i a = _mm512_and_si512(bits, _mm512_set1_epi32(0x7FFFFFFF));
  const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(a, 20), _mm512_set1_epi32(1));
  const __m512i up = _mm512_add_epi32(_mm512_add_epi32(a, _mm512_set1_epi32(0x7FFFF)), odd);
  __m512i code = _mm512_sub_epi32(_mm512_srli_epi32(up, 20), _mm512_set1_epi32(120 << 3));
  const __m512i sub = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_castsi512_ps(a), V512::Set1(512.0f)));
  code = _mm512_mask_mov_epi32(code, _mm512_cmplt_epu32_mask(a, _mm512_set1_epi32(0x3C800000)), sub);
  code = _mm512_or_si512(code, sign);
  const __mmask16 sat = _mm512_cmpge_epu32_mask(a, _mm512_set1_epi32(0x43E00000));  // 448
  code = _mm512_mask_mov_epi32(code, sat, _mm512_or_si512(sign, _mm512_set1_epi32(0x7E)));
  code = _mm512_mask_mov_epi32(code, _mm512_cmpgt_epu32_mask(a, _mm512_set1_epi32(0x7F800000)), _mm512_set1_epi32(0x7F));
  return _mm512_cvtepi32_epi8(code);
}

// codes[k] = e4m3(bf16(o[k]) * inv_scale), k < n: the portable
// F32ToFp8E4M3(BF16ToF32(F32ToBF16(v)) * inv_scale), the bf16 rounding by
// the tier's codec recipe.
void StoreFp8(unsigned char* codes, F o, float inv_scale, int n) {
  const __m128i c = Fp8Codes(V512::Mul(V512::RoundThrough(simd::StBF16{}, o), V512::Set1(inv_scale)));
  _mm_mask_storeu_epi8(codes, V512::Mask(n), c);
}

// Elements [c, c + n) of one row; lanes past n load +0 and are not stored.
template <class X, class G, class O>
void GatedChunk(const GatedRowsJob& j, const ExpTable& tab, const unsigned char* xr, const unsigned char* gr,
                unsigned char* orow, int64_t c, int n, F inv, bool nt) {
  F o = V512::Mul(simd::LoadPart<V512, X>(xr + c * simd::kStBytes<X>, n), inv);
  o = V512::Mul(o, simd::LoadPart<V512, simd::StF32>(j.w + c, n));
  o = V512::Mul(o, GateAct(j, tab, simd::LoadPart<V512, G>(gr + c * simd::kStBytes<G>, n)));
  if constexpr (std::is_same_v<O, StFp8>) {
    StoreFp8(orow + c, o, j.inv_scale, n);
  } else if (nt && n == V512::kW) {
    V512::StoreNT(O{}, orow + c * simd::kStBytes<O>, o);
  } else {
    simd::StorePart<V512, O>(orow + c * simd::kStBytes<O>, o, n);
  }
}

// Scale pass over rows [r0, r0 + nr). A streamed row writes its head (up to
// the first 64-byte aligned address of out) with ordinary stores, then full
// vectors non-temporally: blocking changes the store instruction, never a value.
template <class X, class G, class O>
void GatedScale(const GatedRowsJob& j, int64_t r0, int nr, const float* inv) {
  const ExpTable tab(j.exp_tab);
  const auto* x = static_cast<const unsigned char*>(j.x);
  const auto* gate = static_cast<const unsigned char*>(j.gate);
  auto* out = static_cast<unsigned char*>(j.out);
  bool streamed = false;
  for (int r = 0; r < nr; ++r) {
    const int64_t i = r0 + r;
    const unsigned char* xr = x + i * j.d * simd::kStBytes<X>;
    const unsigned char* gr = gate + ((i / j.g_heads) * j.g_tok_stride + (i % j.g_heads) * j.d) * simd::kStBytes<G>;
    unsigned char* orow = out + i * j.d * kOutBytes<O>;
    int64_t head = j.d;  // fp8 codes are not streamed (16-byte stores)
    if constexpr (!std::is_same_v<O, StFp8>) head = j.stream_out ? simd::StreamHead<V512, O>(orow, j.d) : j.d;
    streamed = streamed || head < j.d;
    const F s = V512::Set1(inv[r]);
    for (int64_t c = 0; c < j.d;) {
      const int64_t stop = c < head ? head : j.d;  // chunks end at the head, then at the row's end
      const int n = stop - c < V512::kW ? static_cast<int>(stop - c) : V512::kW;
      GatedChunk<X, G, O>(j, tab, xr, gr, orow, c, n, s, c >= head);
      c += n;
    }
  }
  if (streamed) _mm_sfence();  // non-temporal stores are weakly ordered: fence before the pool's join
}

template <class X, class G>
void GatedScaleWith(const GatedRowsJob& j, int64_t r0, int nr, const float* inv) {
  if (j.out_dt == DType::kU8) {
    GatedScale<X, G, StFp8>(j, r0, nr, inv);
  } else if (j.out_dt == DType::kBF16) {
    GatedScale<X, G, simd::StBF16>(j, r0, nr, inv);
  } else {
    GatedScale<X, G, simd::StF32>(j, r0, nr, inv);
  }
}

template <class X>
void GatedScaleWithX(const GatedRowsJob& j, int64_t r0, int nr, const float* inv) {
  switch (j.g_dt) {
    case DType::kF16: GatedScaleWith<X, simd::StF16>(j, r0, nr, inv); break;
    case DType::kBF16: GatedScaleWith<X, simd::StBF16>(j, r0, nr, inv); break;
    default: GatedScaleWith<X, simd::StF32>(j, r0, nr, inv); break;
  }
}

}  // namespace

void Fp8CodesSpan(const float* q, uint8_t* codes, int64_t n) {
  for (int64_t k = 0; k < n; k += 16) {
    const int m = n - k < 16 ? static_cast<int>(n - k) : 16;
    _mm_mask_storeu_epi8(codes + k, V512::Mask(m), Fp8Codes(_mm512_maskz_loadu_ps(V512::Mask(m), q + k)));
  }
}

void Fp8CodesFromBf16(const uint16_t* bf16, float inv_scale, uint8_t* codes, int64_t n) {
  const F s = V512::Set1(inv_scale);
  for (int64_t k = 0; k < n; k += 16) {
    const int m = n - k < 16 ? static_cast<int>(n - k) : 16;
    const F q = V512::Mul(simd::LoadPart<V512, simd::StBF16>(bf16 + k, m), s);
    _mm_mask_storeu_epi8(codes + k, V512::Mask(m), Fp8Codes(q));
  }
}

void GatedPanel(const GatedRowsJob& job, int64_t r0, int nr) {
  NormRowsJob sums;  // the plain rms sum pass: no residual, no output
  sums.x = job.x, sums.x_dt = job.x_dt, sums.h = job.d, sums.eps = job.eps, sums.mean = true;
  float inv[kLanes];
  NormPanel(sums, r0, nr, inv);
  switch (job.x_dt) {
    case DType::kF16: GatedScaleWithX<simd::StF16>(job, r0, nr, inv); break;
    case DType::kBF16: GatedScaleWithX<simd::StBF16>(job, r0, nr, inv); break;
    default: GatedScaleWithX<simd::StF32>(job, r0, nr, inv); break;
  }
}

}  // namespace vt::cpu::avx512
VT_TARGET_END
#endif
