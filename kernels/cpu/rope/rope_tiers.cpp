// Dispatch of the RoPE rotation tiers (portable code: the tier bodies live in
// rope_rows_avx512.cpp / rope_rows_avx2.cpp).
#include "cpu/rope/rope_tiers.h"

#include "cpu/simd/target.h"

namespace vt::cpu {

void RopeRowsOn(Isa tier, const RopeRowsJob& job, void* base, int64_t rows, int64_t stride) {
#if VT_X86_TIERS
  if (tier == Isa::kAvx512) {
    avx512::RopeRows(job, base, rows, stride);
  } else {
    avx2::RopeRows(job, base, rows, stride);
  }
#else
  (void)tier, (void)job, (void)base, (void)rows, (void)stride;  // unreachable: no x86 tier is supported here
#endif
}

void ConvertSpanOn(Isa tier, const void* src, DType in, void* dst, DType out, int64_t n) {
#if VT_X86_TIERS
  if (tier == Isa::kAvx512) {
    avx512::ConvertSpan(src, in, dst, out, n);
  } else {
    avx2::ConvertSpan(src, in, dst, out, n);
  }
#else
  (void)tier, (void)src, (void)in, (void)dst, (void)out, (void)n;  // unreachable: no x86 tier is supported here
#endif
}

}  // namespace vt::cpu
