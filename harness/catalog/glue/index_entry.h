// Shapes and fills the index_select / index_copy entries share: rows of any
// elementwise dtype ([N], [N,D], [N,G,D] or [N,G,G2,D]), moved as bytes.
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
// padded), "scale", "fill".
void DrawRowKnobs(Params& p, Tier tier);

// [rows, D...] under the "rank" knob: "1d" [rows], "2d" [rows, D], "3d"
// [rows, G, D], "4d" [rows, G, G2, D] (the highest rank the validators accept).
std::vector<int64_t> RowsShape(const Params& p, int64_t rows);

// Row contents: the glue fill for floats; for integers uniform over a range
// the dtype holds, or raw patterns under the "bits" fill.
Fill RowFill(const Params& p, vt::DType dt);

// The number of elements per index row of t (dim 0 indexes rows).
int64_t RowElems(const TensorData& t);

}  // namespace vt::conform::glue
