// Validation shared by the fp4 quant-family API functions.
#pragma once

#include <initializer_list>
#include <utility>

#include "api/check.h"
#include "vt/ops_quant.h"

namespace vt::api {

// round_up(v, to) for v >= 0.
inline int64_t RoundUp(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

// The first input of an fp4 op: a well-formed 2-D contiguous view of one of
// `dtypes`.
void CheckFp4Input(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                   std::initializer_list<DType> dtypes);

// A second input: well-formed, one of `dtypes`, the first input's shape and,
// when `same_dtype`, its dtype too; contiguous.
void CheckFp4InputLike(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                       std::initializer_list<DType> dtypes, const Tensor& first, const char* first_name,
                       bool same_dtype);

// An input and its name, for the overlap checks.
using Fp4Operand = std::pair<const Tensor&, const char*>;

// The scale layout is one of the two, gsi finite and >= 0; out_packed
// [rows, k/2] u8 and out_scale u8 ([rows, k/16] linear, [round_up(rows,128),
// round_up(k/16,4)] swizzled) contiguous and disjoint, and neither overlaps
// any of `inputs`. k % 16 is checked by the caller, where the inner dim is
// named after its input.
void CheckFp4Outputs(const Checker& c, const ExecContext& ctx, const Tensor& out_packed,
                     const Tensor& out_scale, int64_t rows, int64_t k, float gsi,
                     Fp4ScaleLayout layout, std::initializer_list<Fp4Operand> inputs);

}  // namespace vt::api
