// Validation shared by the RoPE-family API functions (op-contracts 3.5, 3.12;
// hazards H-3, H-7, H-11).
#pragma once

#include "api/check.h"
#include "vt/ops_rope.h"

namespace vt::api {

// 0 < rotary_dim <= head_dim, even.
void CheckRotaryDim(const Checker& c, int rotary_dim, int64_t head_dim);

// positions [T] i32/i64 contiguous.
void CheckTokenPositions(const Checker& c, const ExecContext& ctx, const Tensor& positions, int64_t tokens);

// Every position in [0, rows): the data check the spec's kernels made inside
// the parallel loop, after other rows were written (H-3). Runs before any write.
void CheckPositionsInCache(const Checker& c, const ExecContext& ctx, const Tensor& positions, int64_t rows);

// The frequency arguments of rope_neox / rope_cos_sin_cache (H-7): base > 0;
// llama3_scaling_factor >= 0 (0 = off); the other Llama-3 fields > 0. All finite.
void CheckFrequencyArgs(const Checker& c, const RopeArgs& args);

}  // namespace vt::api
