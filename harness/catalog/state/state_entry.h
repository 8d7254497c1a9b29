// Shapes, fills and expected bytes the gdn_state_gather / gdn_state_scatter
// entries share. The cache is [slots, mid..., Lc] (rank 2..4) of f32 / f16 /
// bf16; the working buffer [N, mid..., Lw] f32 with Lw <= Lc (a widened conv
// row keeps its extra taps in the cache only).
#pragma once

#include <string>
#include <vector>

#include "harness/catalog/glue/glue_entry.h"

namespace vt::conform::state {

// Draws rows "T" (N), "rank", "H", "D" (Lw), "wide" (Lc - Lw), "extra" slots,
// the cache dtype and the fill.
void DrawShapes(Params& p, Tier t);
std::vector<int64_t> CacheShape(const Params& p);
std::vector<int64_t> WorkingShape(const Params& p);
// Innermost rows per slot (the product of the middle dims).
int64_t Mid(const TensorData& t);

// Error cases of the shape relations and index values both ops share.
std::vector<ErrorCase> SharedErrors();

}  // namespace vt::conform::state
