// The avx2 tier of mul_scalar / mul_col_vec_f32: scale_span.inc over the
// V256 traits, compiled for avx2 inside its target region (cpu/simd/target.h).
#include "cpu/act/scale_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>

VT_TARGET_AVX2_BEGIN
#include "cpu/simd/vec_avx2.h"
#include "cpu/act/scale_span.inc"

namespace vt::cpu::avx2 {

void ScaleSpan(const ScaleJob& job, const void* x, void* out, int64_t n) {
  simd::ScaleSpanDispatch<simd::V256>(job, x, out, n);
}

}  // namespace vt::cpu::avx2
VT_TARGET_END
#endif
