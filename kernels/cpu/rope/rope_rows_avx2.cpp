// The avx2 tier of rope_from_cache / rope_neox's rotation: rope_rows.inc over
// the V256 traits, compiled for avx2 inside its target region (cpu/simd/target.h).
#include "cpu/rope/rope_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>

VT_TARGET_AVX2_BEGIN
#include "cpu/simd/vec_avx2.h"
#include "cpu/rope/rope_rows.inc"

namespace vt::cpu::avx2 {

void RopeRows(const RopeRowsJob& job, void* base, int64_t rows, int64_t stride) {
  simd::RopeRowsDispatch<simd::V256>(job, base, rows, stride);
}

void ConvertSpan(const void* src, DType in, void* dst, DType out, int64_t n) {
  simd::ConvertDispatch<simd::V256>(src, in, dst, out, n);
}

}  // namespace vt::cpu::avx2
VT_TARGET_END
#endif
