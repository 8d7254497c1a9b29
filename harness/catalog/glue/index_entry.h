// The builder of the index_select / index_copy entries: rows of any
// elementwise dtype ([N], [N,D], [N,G,D] or [N,G,G2,D]) moved as raw bytes
// between the indexed operand (N rows, row-strided) and the moved one (M
// rows, one per index). IndexSpec adds the row knobs, the error cases and
// the padded == packed claim to glue::MoveSpec.
#pragma once

#include <string>
#include <vector>

#include "harness/catalog/glue/glue_entry.h"

namespace vt::conform::glue {

// Every elementwise dtype (the byte-moving index ops accept any).
inline const std::vector<vt::DType> kAnyDType = {vt::DType::kF32, vt::DType::kF16, vt::DType::kBF16, vt::DType::kI8,
                                                 vt::DType::kU8,  vt::DType::kI32, vt::DType::kI64};
rc::Gen<std::string> AnyDType();

// The row knobs RowsShape and RowFill read: "rank" (gen::DrawRank: with "G"
// at 3d, "G" and "G2" at 4d), "D", "pad" (rows of the indexed tensor may be
// padded); MoveSpec draws "scale" and "fill" after them.
void DrawRowKnobs(Params& p, Tier tier);

// [rows, D...] under the "rank" knob: "1d" [rows], "2d" [rows, D], "3d"
// [rows, G, D], "4d" [rows, G, G2, D] (the highest rank the validators accept).
std::vector<int64_t> RowsShape(const Params& p, int64_t rows);

// Row contents: the glue fill for floats; for integers uniform over a range
// the dtype holds, or raw patterns under the "bits" fill.
Fill RowFill(const Params& p, vt::DType dt);

// The number of elements per index row of t (dim 0 indexes rows).
int64_t RowElems(const TensorData& t);

// A row move over the i32 index "idx" and output "out": the entry's Mover
// (its draws come before the row knobs), the indexed operand and the moved
// one. The error cases: the moved operand's rows, width, rank and dtype
// against the indexed one (`third`, the op's own relation, after its width),
// idx's dtype and contiguity, and idx out of [0, N) either way. The claim
// "strided_eq_packed" (padded rows of the indexed operand == packed) comes
// last; the entry sets the contract and puts its own claims first.
OpSpec IndexSpec(Mover m, const std::string& indexed, const std::string& moved, ErrorCase third);

}  // namespace vt::conform::glue
