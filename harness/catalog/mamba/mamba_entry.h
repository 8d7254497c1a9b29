// Helpers the two Mamba2 catalog entries share: index metadata as declared
// values, value distributions, and error cases that rebuild a case from
// edited params or edit one metadata vector.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "vt/ops_mamba.h"

namespace vt::conform::mamba {

// An i32 metadata tensor holding exactly `values` (over a constant fill, so
// every re-materialisation gives the same bytes).
void SetInts(TensorData& t, const std::vector<int64_t>& values);
// The values SetInts declared (readable before materialisation), or the
// tensor's contents when it holds storage.
std::vector<int64_t> Ints(const TensorData& t);

// The value distribution knob "dist": normal | large_dt | small_a | overflow.
Fill DtFill(const Params& p);
Fill AFill(const Params& p);
// dt_bias: centred for softplus; without it, small and >= 0 (a negative dt
// would be clamped to 0 by dt_min >= 0: a head with no input at all).
Fill BiasFill(const Params& p);

// Mamba2Args from the knobs cs (chunk size), softplus, dt_min, dt_max
// (absent: +inf) and tp (absent: 1).
vt::Mamba2Args Args(const Params& p);

// An error case that edits the params and rebuilds the case with `build`
// (shape-consistent changes: every tensor follows the new params).
ErrorCase Rebuilt(std::string name, std::function<bool(Params&)> edit, void (*build)(Case&),
                  std::string expect);
// An error case that edits the values of one i32 metadata tensor; `edit`
// returns false when it cannot apply to the case.
ErrorCase EditInts(std::string name, std::string tensor,
                   std::function<bool(std::vector<int64_t>&, const Case&)> edit, std::string expect);
// An error case that sets one scalar knob (refused by the named condition).
ErrorCase SetArg(std::string name, std::string key, Json value, std::string expect);

}  // namespace vt::conform::mamba

namespace vt::conform::mamba {

// The chunk scan's tolerance (docs/ops/mamba.md, "Tolerance"): the kernel
// (chunked, cumulative-decay algebra) and the oracle (sequential recurrence)
// are different algorithms, so neither a byte check nor the f32 definition
// applies. Per element: c * max|oracle<float> - truth| (the baseline rule)
// plus the chunked algorithm's own error term and the handover-rounding flips
// (harness/catalog/mamba/mamba2_chunk_scan.cpp, Oracle), ends rounded to the
// output format.
inline constexpr double kBaselineC = 4.0;
inline constexpr double kBaselineFloor = 1e-30;
inline constexpr const char* kBaselineWhy =
    "vs the sequential recurrence in double (no chunks; state-dtype rounding at each chunk "
    "handover modelled): 4 * max|oracle<float> - truth| (baseline rule) + the chunked "
    "algorithm's error per term (each decay off by the seed's f32 dt*A cumsum error over the "
    "steps it spans, measured exactly; plus, of the widened magnitudes, (i + 1 + N + 8) u of the "
    "intra-chunk part at a chunk's i-th token and (N + longest chunk + chunks per sequence + 8) u "
    "of the carried state's part) + the effect of handover roundings that may flip "
    "(non-f32 state); docs/ops/mamba.md";

}  // namespace vt::conform::mamba
