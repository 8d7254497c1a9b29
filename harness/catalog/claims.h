// Building blocks for equivalence claims ("bit-identical to" statements).
// Every claim runs real kernels through Execute() and compares logical bytes.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "harness/catalog/op_spec.h"

namespace vt::conform {

// A contiguous copy of src's logical contents under a new name and role.
TensorData CopyTensor(const TensorData& src, const std::string& name, Role role);
// A contiguous tensor with the given values (encoded to dtype).
TensorData TensorFromValues(const std::string& name, vt::DType dtype, std::vector<int64_t> shape,
                            Role role, const std::vector<double>& values);
// "" when a and b hold the same logical bytes, else where they first differ.
// any_nan: two f32/f16/bf16 NaNs match whatever their sign and payload. Which
// NaN an operation returns when both operands are NaN (or the sign of an
// invalid operation's NaN) is fixed neither by IEEE 754 nor by C++ (a
// compiler may commute a * b), so two evaluations of one definition - the
// kernel and oracle<float>, or two kernels - may differ there and nowhere
// else. fp8 payloads stay byte-exact: the spec's NaN code is 0x7F, always.
std::string DiffBytes(const TensorData& a, const TensorData& b, bool any_nan = false);

// Batch invariance: running a sub-range of rows (dim 0 of every tensor named)
// alone gives the same bytes as those rows of the full run. The range is
// derived from the case seed; the row count is the first named tensor's leading
// extent. Tensors not named are shared (weights). Applies
// to cases whose leading extent param "T" is >= 2.
Claim RowSlice(std::vector<std::string> row_tensors);
// The same over the flat element order (every named tensor viewed as 1-D).
Claim FlatSlice(std::vector<std::string> tensors);

// Every written operand's bytes equal the op's oracle evaluated at S = float
// (OpSpec::oracle_f32) and stored to the operand's dtype: the definition in
// f32, in the spec's order, with its rounding points. The seed fixes that
// order, so a kernel that reassociates, multiplies by a reciprocal instead of
// dividing, or fuses a multiply-add, breaks it even when the difference is one
// ulp - below what a tolerance can see. The catalog adds it to every op that
// provides oracle_f32.
Claim F32Definition();
// The check itself on a run already made: "" when every written operand of
// `after` holds the bytes of op.oracle_f32(in); else where they first differ.
// The oracle mode applies it to every case of an op that has oracle_f32.
std::string F32DefinitionDiff(const OpSpec& op, const Case& in, const Case& after);

}  // namespace vt::conform
