// The avx512 tier of rms_norm_gated_group (gated_tiers.h, GatedGroupJob):
// per row, v = x * silu(gate) with the silu tier's vector expf into an f32
// row; without a weight out = round_through(x dtype, v); with one, per group
// the sequential sum of v^2 (the decode chain: squares 16 at a time, added
// lane by lane in column order), inv, then out = w * round_through(x dtype,
// v * inv) - the portable tier's operations in its order. Compiled for
// avx512 inside its target region.
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

// The value an f32 reads back as after a store to / load from X (the
// codec's RoundThrough): f16 by vcvtps2ph with round to nearest even, an
// IEEE conversion (subnormals and overflow to inf included; checked against
// the codec by the tier test).
template <class X>
F RoundThroughX(F v) {
  if constexpr (std::is_same_v<X, simd::StF16>) {
    return _mm512_cvtph_ps(_mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  } else if constexpr (std::is_same_v<X, simd::StBF16>) {
    return V512::RoundThrough(simd::StBF16{}, v);
  } else {
    return v;
  }
}

// silu(z) for 16 gates; a vector with a gate off the expf's main path (or
// no checked table) takes the scalar expf for all 16.
F Silu(const GatedGroupJob& j, const ExpTable& tab, F z) {
  if (j.exp_tab == nullptr || OffMainPath(z) != 0) {
    float zs[16], as[16];
    V512::Spill(zs, z);
    GateActScalar(zs, as, 16, /*sigmoid=*/false);
    return _mm512_loadu_ps(as);
  }
  const F den = V512::Add(V512::Set1(1.0f), Expf(_mm512_xor_ps(z, V512::Set1(-0.0f)), tab));
  return V512::Div(z, den);
}

template <class X, class G, class O>
void GroupRows(const GatedGroupJob& j, int64_t r0, int64_t r1, float* v) {
  const ExpTable tab(j.exp_tab);
  constexpr int kX = simd::kStBytes<X>, kG = simd::kStBytes<G>, kO = simd::kStBytes<O>;
  for (int64_t r = r0; r < r1; ++r) {
    const auto* xr = static_cast<const unsigned char*>(j.x) + r * j.hidden * kX;
    const auto* gr = static_cast<const unsigned char*>(j.gate) + r * j.hidden * kG;
    auto* orow = static_cast<unsigned char*>(j.out) + r * j.hidden * kO;
    for (int64_t c = 0; c < j.hidden; c += V512::kW) {
      const int n = j.hidden - c < V512::kW ? static_cast<int>(j.hidden - c) : V512::kW;
      const F vv = V512::Mul(simd::LoadPart<V512, X>(xr + c * kX, n), Silu(j, tab, simd::LoadPart<V512, G>(gr + c * kG, n)));
      if (j.w == nullptr) {
        simd::StorePart<V512, O>(orow + c * kO, RoundThroughX<X>(vv), n);
      } else {
        simd::StorePart<V512, simd::StF32>(v + c, vv, n);
      }
    }
    if (j.w == nullptr) continue;
    for (int64_t g0 = 0; g0 < j.hidden; g0 += j.group) {
      __m128 sum = _mm_setzero_ps();
      for (int64_t c = g0; c < g0 + j.group; c += V512::kW) {
        const int n = g0 + j.group - c < V512::kW ? static_cast<int>(g0 + j.group - c) : V512::kW;
        const F vv = simd::LoadPart<V512, simd::StF32>(v + c, n);  // lanes past n: +0, adding nothing
        sum = V512::ChainAdd(sum, V512::Mul(vv, vv));
      }
      const F mean = V512::Div(V512::Set1(_mm_cvtss_f32(sum)), V512::Set1(static_cast<float>(j.group)));
      const F inv = V512::Div(V512::Set1(1.0f), V512::Sqrt(V512::Add(mean, V512::Set1(j.eps))));
      for (int64_t c = g0; c < g0 + j.group; c += V512::kW) {
        const int n = g0 + j.group - c < V512::kW ? static_cast<int>(g0 + j.group - c) : V512::kW;
        const F normed = RoundThroughX<X>(V512::Mul(simd::LoadPart<V512, simd::StF32>(v + c, n), inv));
        const F o = V512::Mul(simd::LoadPart<V512, simd::StF32>(j.w + c, n), normed);
        simd::StorePart<V512, O>(orow + c * kO, o, n);
      }
    }
  }
}

template <class X, class G>
void GroupRowsWith(const GatedGroupJob& j, int64_t r0, int64_t r1, float* v) {
  if (j.out_dt == DType::kBF16) {
    GroupRows<X, G, simd::StBF16>(j, r0, r1, v);
  } else {
    GroupRows<X, G, simd::StF32>(j, r0, r1, v);
  }
}

template <class X>
void GroupRowsWithX(const GatedGroupJob& j, int64_t r0, int64_t r1, float* v) {
  switch (j.g_dt) {
    case DType::kF16: GroupRowsWith<X, simd::StF16>(j, r0, r1, v); break;
    case DType::kBF16: GroupRowsWith<X, simd::StBF16>(j, r0, r1, v); break;
    default: GroupRowsWith<X, simd::StF32>(j, r0, r1, v); break;
  }
}

}  // namespace

void GatedGroupRows(const GatedGroupJob& job, int64_t r0, int64_t r1, float* v) {
  switch (job.x_dt) {
    case DType::kF16: GroupRowsWithX<simd::StF16>(job, r0, r1, v); break;
    case DType::kBF16: GroupRowsWithX<simd::StBF16>(job, r0, r1, v); break;
    default: GroupRowsWithX<simd::StF32>(job, r0, r1, v); break;
  }
}

void RoundThroughF16Span(const float* in, float* out, int64_t n) {
  for (int64_t k = 0; k < n; k += 16) {
    const int m = n - k < 16 ? static_cast<int>(n - k) : 16;
    _mm512_mask_storeu_ps(out + k, V512::Mask(m), RoundThroughX<simd::StF16>(_mm512_maskz_loadu_ps(V512::Mask(m), in + k)));
  }
}

}  // namespace vt::cpu::avx512
VT_TARGET_END
#endif
