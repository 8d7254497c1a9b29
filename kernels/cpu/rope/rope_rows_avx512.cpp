// The avx512 tier of rope_from_cache / rope_neox's rotation: rope_rows.inc over
// the V512 traits, compiled for avx512 inside its target region (cpu/simd/target.h).
#include "cpu/rope/rope_tiers.h"
#include "cpu/simd/target.h"

#if VT_X86_TIERS
#include <immintrin.h>

#include <cstdint>

VT_TARGET_AVX512_BEGIN
#include "cpu/simd/vec_avx512.h"
#include "cpu/rope/rope_rows.inc"

namespace vt::cpu::avx512 {

void RopeRows(const RopeRowsJob& job, void* base, int64_t rows, int64_t stride) {
  simd::RopeRowsDispatch<simd::V512>(job, base, rows, stride);
}

void ConvertSpan(const void* src, DType in, void* dst, DType out, int64_t n) {
  simd::ConvertDispatch<simd::V512>(src, in, dst, out, n);
}

}  // namespace vt::cpu::avx512
VT_TARGET_END
#endif
