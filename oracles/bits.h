// Bit patterns of the element formats, decoded and encoded BY VALUE from each
// format's definition (sign, biased exponent, mantissa), independently of the
// kernels' bit-level codecs (kernels/core/codec.cpp). The harness turns bytes
// into values and values into expected bytes only through these, so a bug in
// a kernel codec moves the kernel and not its oracle (docs/decisions.md,
// "Oracle-side codecs").
//
// Formats (pattern in the low bits of the uint32_t):
//   f32  1/8/23 bias 127    f16 1/5/10 bias 15    bf16 1/8/7 bias 127
//     exponent field all ones: inf (mantissa 0) or NaN; field 0: subnormal.
//   fp8 e4m3fn 1/4/3 bias 7: no inf; exponent 15 with mantissa 7 (0x7F, 0xFF)
//     is NaN, every other code with exponent 15 is finite (up to 448).
//   fp4 e2m1 nibble 1/2/1 bias 1: magnitudes 0, .5, 1, 1.5, 2, 3, 4, 6; no
//     inf, no NaN.
#pragma once

#include <cstdint>

#include "oracles/format.h"

namespace vt::oracle {

// The value of `bits` in `fmt` (bits above the format's width are ignored).
// NaN patterns of f32/f16/bf16 give a double NaN with the same sign and the
// payload in the top mantissa bits (IEEE 754's payload-preserving widening),
// so a NaN that an f32 computation carries through re-encodes to the bytes
// the kernel stores. fp8's NaN codes carry no payload: +NaN.
double DecodeBits(Fmt fmt, uint32_t bits);

// The pattern of RoundReal(fmt, x): round the real x to the format once (ties
// to even; f32/f16/bf16 overflow to inf, fp8/fp4 saturate at 448/6), then
// build the pattern from the rounded value. Signed zero is kept, except fp4,
// whose zero is always +0 (code 0). NaN (the spec's rules, op-contracts 1.4):
//   f32/f16/bf16: same sign, top payload bits kept, quiet bit forced;
//   fp8: 0x7F whatever the sign; fp4: +6 (0x7).
// A kernel rounds from an f32 VALUE. Callers that model a kernel store pass
// an f32-representable x (EncodeElement casts to float first); for such x
// this equals the kernel codec's result (harness/tests/unit/
// codec_agreement_test.cpp). For other x it rounds once, where float-then-
// format would round twice.
uint32_t EncodeBits(Fmt fmt, double x);

}  // namespace vt::oracle
