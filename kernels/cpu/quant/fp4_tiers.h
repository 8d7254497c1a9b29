// The vector tiers of the NVFP4 quantizer (fp4_quant_rows.h), shared by
// scaled_fp4_quant and the fused activation + quant ops (whose activation
// runs its own kernel as before: only the quantizer of the bf16 scratch is
// this tier code). Portable declarations only: the tier code lives in
// fp4_row_avx512.cpp / fp4_row_avx2.cpp (fp4_row.inc).
// Per group of 16, the portable tier's steps: amax of |x| skipping NaN (a
// lane max, exact in any order), the block scale in scalar code (one e4m3
// encode per group: the codec's result by integer rounding,
// fp4_scale_code.h; its value read back from a table of the codec's), then
// per element
// clamp(x * inv_block, +-6) and the e2m1 code of the codec (its midpoint
// rules as comparisons), two codes a byte, low nibble first.
#pragma once

#include <cstdint>

#include "vt/dtype.h"
#include "vt/isa.h"

namespace vt::cpu {

struct Fp4RowJob {
  DType x_dt = DType::kF32;  // f32/f16/bf16
  int64_t k = 0;             // row length, a multiple of 16
  float gsi = 0.0f;          // global scale inverse
  float gsi_recip = 0.0f;    // 1 / gsi, 0 for gsi == 0
  const float* e4m3 = nullptr;  // Fp8E4M3Values()
};

// The 256 values Fp8E4M3ToF32 gives, by code: filled once from the codec
// itself (so a lookup is the codec's result by construction).
const float* Fp8E4M3Values();

// One row: k/2 packed bytes to `packed`, k/16 scale codes to `scales` (in
// group order; the caller places them in its scale layout).
namespace avx512 {
void Fp4QuantRow(const Fp4RowJob& job, const void* x, uint8_t* packed, uint8_t* scales);
}
namespace avx2 {
void Fp4QuantRow(const Fp4RowJob& job, const void* x, uint8_t* packed, uint8_t* scales);
}

// Fp4QuantRow of `tier` (kAvx2 or kAvx512, one the CPU supports).
void Fp4QuantRowOn(Isa tier, const Fp4RowJob& job, const void* x, uint8_t* packed, uint8_t* scales);

}  // namespace vt::cpu
