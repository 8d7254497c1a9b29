// An op's contract, declared once in its catalog entry: its operands (the
// dtypes each accepts, the layout its validator requires, whether it is
// written), and its scalar arguments' ranges. The error cases that break each
// declared condition, one at a time, are derived from it (DerivedErrorCases),
// so a new op gets them by declaring its contract, and check coverage
// (harness/modes/check_coverage.h) proves the declaration matches what the
// validator enforces. Shape relations stay hand-written per op (mut::Dim,
// mut::AddDim, ...): they are the op's own algebra.
#pragma once

#include <string>
#include <vector>

#include "vt/dtype.h"

namespace vt::conform {

struct ErrorCase;  // harness/catalog/op_spec.h

struct OperandRule {
  enum class Layout {
    kContiguous,  // strides must be row-major packed
    kRowStrided,  // inner dims packed, outer strides free (>= the inner span)
    kAnyShape,    // contiguous, and only the element count is constrained
    // Innermost stride 1, row stride (the second-innermost) >= the row width,
    // every other (batch) stride free: transposed batch views are legal.
    kBatchStrided,
    kInnerUnit,   // innermost stride 1; every outer stride free (read-only views)
  };
  std::string name;
  std::vector<vt::DType> dtypes;  // every dtype the validator accepts
  Layout layout = Layout::kContiguous;
  bool written = false;           // output or in place: may overlap nothing else
  // The ranks the validator accepts (empty: any rank 1..4, e.g. same-shape
  // ops). A rank outside them, one more or one less than the case's, must be
  // refused.
  std::vector<int> ranks;
  // The op honours the elem_kn_repacked flag on this operand (matmul_bt's
  // weight). Every other operand must refuse it: a derived error case sets it.
  bool kn_repack = false;
};

struct ScalarRule {
  // kNonNegativeFinite: 0 is legal (e.g. a rescale factor whose 0 means off).
  enum class Range { kPositiveFinite, kFinite, kNonNegativeFinite };
  std::string key;     // the Params key the entry passes to the op
  Range range = Range::kPositiveFinite;
  // The API takes a float: a double that is in range but rounds to 0 or to
  // inf in f32 must be refused too.
  bool as_f32 = true;
};

struct Contract {
  std::vector<OperandRule> operands;
  std::vector<ScalarRule> scalars;
  // Operands whose element count alone is constrained: the generic "reshape"
  // knob draws them flat, reversed and [1, n] (positive layouts).
  std::vector<std::string> AnyShape() const;
};

// The float dtype sets the validators use (vt::api::Checker FloatIn / FloatOut).
std::vector<vt::DType> FloatInDTypes();   // f32, f16, bf16
std::vector<vt::DType> FloatOutDTypes();  // f32, bf16

// Per operand: the generic view conditions (rank 0, unknown dtype, negative
// extent, negative stride, element count overflowing int64, null data, another
// device, data one byte off its alignment unless every dtype of its set is
// one byte wide), every dtype outside its set (all float dtypes, u8 and i32), its
// layout (padded rows / inner stride 2 for contiguous; inner stride 2 and
// overlapping rows for row-strided and batch-strided), the elem_kn_repacked
// flag where the operand does not honour it, a rank one above or below the case's
// where the contract excludes it; per written operand and every other
// operand: a full alias and one-element partial overlaps at either end of a
// packed allocation; per scalar: 0, negative, NaN, +-inf and, as f32, a
// positive double that underflows to 0 and one that overflows to inf.
std::vector<ErrorCase> DerivedErrorCases(const Contract& c);

}  // namespace vt::conform
