// The avx512 tier of mul_scalar / mul_col_vec_f32: scale_span.inc over the
// V512 traits, compiled for avx512 inside its target region (cpu/simd/target.h).
#include "cpu/act/scale_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>

VT_TARGET_AVX512_BEGIN
#include "cpu/simd/vec_avx512.h"
#include "cpu/act/scale_span.inc"

namespace vt::cpu::avx512 {

void ScaleSpan(const ScaleJob& job, const void* x, void* out, int64_t n) {
  simd::ScaleSpanDispatch<simd::V512>(job, x, out, n);
}

}  // namespace vt::cpu::avx512
VT_TARGET_END
#endif
