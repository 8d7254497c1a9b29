// The avx512 tier of AttendRow: attend_row.inc over the V512 traits, with
// pass 2 on the silu tiers' bit-exact vector expf (expf_avx512.inc). Compiled
// for avx512 inside its target region (cpu/simd/target.h).
#include "cpu/attn/attend_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>

VT_TARGET_AVX512_BEGIN
#include "cpu/simd/vec_avx512.h"
#include "cpu/attn/attend_row.inc"

namespace vt::cpu::avx512 {
namespace {

using simd::V512;

#include "cpu/act/expf_avx512.inc"

// e_j = expf(s_j - m), 16 at a time, and denom + e_j in ascending j as one
// scalar chain (ChainAdd: lane 0 first). A block with a lane off the vector
// expf's main path (s_j - m <= -88, inf, NaN), every block when the
// self-check failed, and the last partial block take the scalar expf chain.
struct VectorExp {
  static float Run(const AttendJob& j, float* probs, float m) {
    const ExpTable tab(j.exp_tab);
    const __m512 mv = _mm512_set1_ps(m);
    __m128 denom = _mm_setzero_ps();
    int64_t j0 = 0;
    for (; j0 + 16 <= j.n; j0 += 16) {
      const __m512 x = _mm512_sub_ps(_mm512_loadu_ps(probs + j0), mv);
      if (j.exp_tab == nullptr || OffMainPath(x) != 0) {
        denom = _mm_set_ss(ExpChainScalar(probs + j0, 16, m, _mm_cvtss_f32(denom)));
        continue;
      }
      const __m512 e = Expf(x, tab);
      _mm512_storeu_ps(probs + j0, e);
      denom = V512::ChainAdd(denom, e);
    }
    return ExpChainScalar(probs + j0, j.n - j0, m, _mm_cvtss_f32(denom));
  }
};

}  // namespace

void AttendRowTier(const AttendJob& job) { simd::AttendRowWith<V512, VectorExp>(job); }

}  // namespace vt::cpu::avx512
VT_TARGET_END
#endif
