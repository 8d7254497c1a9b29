// Validation shared by the fp4 quant-family API functions.
#pragma once

#include "api/check.h"
#include "vt/ops_quant.h"

namespace vt::api {

// round_up(v, to) for v >= 0.
inline int64_t RoundUp(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

// The scale layout is one of the two, gsi finite and >= 0; out_packed
// [rows, k/2] u8 and out_scale u8 ([rows, k/16] linear, [round_up(rows,128),
// round_up(k/16,4)] swizzled) contiguous and disjoint. k % 16 is checked by the
// caller, where the inner dim is named after its input.
void CheckFp4Outputs(const Checker& c, const ExecContext& ctx, const Tensor& out_packed,
                     const Tensor& out_scale, int64_t rows, int64_t k, float gsi,
                     Fp4ScaleLayout layout);

// Neither output overlaps the input `in`.
void CheckFp4Disjoint(const Checker& c, const Tensor& out_packed, const Tensor& out_scale,
                      const Tensor& in, const char* name);

}  // namespace vt::api
