// The state-movement entries (gdn_state_gather, gdn_state_scatter): one
// builder, StateSpec, and the shapes, fills and error cases both share. The
// cache is [slots, mid..., Lc] (rank 2..4) of f32 / f16 / bf16; the working
// buffer [N, mid..., Lw] f32 with Lw <= Lc (a widened conv row keeps its
// extra taps in the cache only).
#pragma once

#include <string>
#include <vector>

#include "harness/catalog/glue/glue_entry.h"
#include "harness/catalog/seq_entry.h"

namespace vt::conform::state {

// What one state entry declares. StateSpec adds the rest: family state, the
// generator (DrawShapes, then the hooks' draw: knobs after DrawShapes',
// empty: none), the hooks' oracle and exact bytes, the outputs (`output`,
// defined exactly), and the shape and index error cases both share before the
// entry's own.
struct StateOp {
  std::string name;
  std::string dtypes;
  seq::Hooks<std::function<OracleResult(const Case&)>, std::function<std::vector<TensorData>(const Case&)>> hooks;
  OutputSpec output;
  std::vector<OperandRule> operands;
  std::vector<ErrorCase> errors = {};
  std::vector<Claim> claims = {};
};
OpSpec StateSpec(StateOp op);

// Draws rows "T" (N), "rank", "H", "D" (Lw), "wide" (Lc - Lw), "extra" slots,
// the cache dtype and the fill.
void DrawShapes(Params& p, Tier t);
std::vector<int64_t> CacheShape(const Params& p);
std::vector<int64_t> WorkingShape(const Params& p);
// Innermost rows per slot (the product of the middle dims).
int64_t Mid(const TensorData& t);

}  // namespace vt::conform::state
