// Scalar codecs between f32 and the narrow formats the kernels store.
//
// Rules (spec: ../shared/spec/op-contracts.md section 1.4):
//  * f32 -> f16 / bf16: round to nearest, ties to even; overflow gives inf;
//    inf stays inf; NaN keeps its sign and top payload bits and is quieted.
//  * f16 / bf16 -> f32: exact (payload and sign preserved, subnormals normalised).
//  * f32 -> fp8 e4m3fn: round to nearest even, SATURATING: |x| >= 448 and +-inf
//    give +-448 (0x7E/0xFE); NaN gives 0x7F; the sign of zero is kept.
//  * fp8 e4m3fn -> f32: bias 7, no infinities, 0x7F/0xFF are NaN, exponent 0 is
//    subnormal (m * 2^-9).
//  * f32 -> fp4 e2m1 nibble: magnitudes {0,.5,1,1.5,2,3,4,6}, ties to even
//    (thresholds 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5), |x| > 6 gives 6, bit 3 is
//    the sign, a zero result is always +0, NaN gives +6. Two codes share a byte:
//    element 2j in the LOW nibble, 2j+1 in the high nibble.
#pragma once

#include <cstdint>

namespace vt {

uint16_t F32ToF16(float f);
float F16ToF32(uint16_t h);

uint16_t F32ToBF16(float f);
float BF16ToF32(uint16_t b);

uint8_t F32ToFp8E4M3(float f);
float Fp8E4M3ToF32(uint8_t code);

uint8_t F32ToFp4E2M1(float f);     // returns a nibble 0..15
float Fp4E2M1ToF32(uint8_t nibble);  // reads the low 4 bits

inline constexpr float kFp8E4M3Max = 448.0f;
inline constexpr float kFp4E2M1Max = 6.0f;

}  // namespace vt
