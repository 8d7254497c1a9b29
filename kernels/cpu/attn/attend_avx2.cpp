// The avx2 tier of AttendRow: attend_row.inc over the V256 traits. Pass 2
// stays the scalar expf chain (the bit-exact vector expf needs avx512's
// 64-bit permutes; a different expf would change the bytes).
#include "cpu/attn/attend_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>

VT_TARGET_AVX2_BEGIN
#include "cpu/simd/vec_avx2.h"
#include "cpu/attn/attend_row.inc"

namespace vt::cpu::avx2 {
namespace {

struct ScalarExp {
  static float Run(const AttendJob& j, float* probs, float m) { return ExpChainScalar(probs, j.n, m, 0.0f); }
};

}  // namespace

void AttendRowTier(const AttendJob& job) { simd::AttendRowWith<simd::V256, ScalarExp>(job); }

}  // namespace vt::cpu::avx2
VT_TARGET_END
#endif
