// The Mamba2 entries (mamba2_chunk_scan, mamba2_state_update): one builder,
// MambaSpec, and the pieces both share - the dtype and head draws, the SSM
// inputs and their value distributions, the kernel arguments, the error
// cases of the shared shapes, and the golden adapters' common steps.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "harness/catalog/seq_entry.h"
#include "vt/ops_mamba.h"

namespace vt::conform {
struct GoldenCase;
}

namespace vt::conform::mamba {

// What one Mamba2 entry declares. MambaSpec adds the rest: family mamba, the
// generator (the dtypes "x", "dt", "out", "state", then the hooks' draw),
// the oracle and f32 definition of the hooks (the f32 one optional), the
// contract's inputs x, dt, A, B, C, D (of `d_ranks`), z, dt_bias before the
// entry's `operands`, and the error cases of the shapes both ops share
// before the entry's own: a tensor-parallel size of 2, P = 0 (refused naming
// `x_shape`), G not dividing H, N = 0 (each rebuilt through the hooks'
// build), one extent of dt, A, B, C, out, D and dt_bias.
struct MambaOp {
  std::string name;
  std::string dtypes;
  seq::Hooks<std::function<OracleResult(const Case&)>,
             std::function<std::map<std::string, std::vector<double>>(const Case&)>>
      hooks;
  std::vector<OutputSpec> (*outputs)(const Case&);
  std::vector<int> d_ranks;
  std::vector<OperandRule> operands;
  std::string x_shape;  // how the validator names x: "x [T,H,P]"
  std::vector<ErrorCase> errors = {};
  std::vector<Claim> claims = {};
  std::vector<GoldenAdapter> goldens = {};
};
OpSpec MambaSpec(MambaOp m);

// "H" and "G" (a divisor of H, so that B/C groups tile the heads).
void DrawHeads(Params& p);
// The optional inputs' knobs, after "D": "z", "dt_bias", "softplus" (0 | 1).
void DrawOptions(Params& p);

// The value distribution knob "dist": normal | large_dt | small_a | overflow.
Fill DtFill(const Params& p);
Fill AFill(const Params& p);
// dt_bias: centred for softplus; without it, small and >= 0 (a negative dt
// would be clamped to 0 by dt_min >= 0: a head with no input at all).
Fill BiasFill(const Params& p);
// x [rows,H,P], dt [rows,H], A [H], B, C [rows,G,N], D of `d_shape` (empty:
// none), z [rows,H,P] and dt_bias [H] where drawn - the fills above.
void AddInputs(Case& c, int64_t rows, const std::vector<int64_t>& d_shape);
// A tensor's values, or none when the case lacks it (an optional input).
std::vector<double> ValuesOr(const Case& c, const std::string& name);

// Mamba2Args from the knobs cs (chunk size), softplus, dt_min, dt_max
// (absent: +inf) and tp (absent: 1).
vt::Mamba2Args Args(const Params& p);

// A golden's x and the named tensors (z where present) must share one
// dtype: the catalog draws one activation dtype.
void RequireOneActivationDtype(const GoldenCase& g, const std::vector<std::string>& names);
// A golden's dtypes as the knobs "x", "dt", "out", "state" (`state`: the
// state tensor's name in the capture).
void SetGoldenDtypes(Params& p, const GoldenCase& g, const std::string& state);
// A golden's shape as the knobs "H", "G", "P", "N", "D" (= `d`), "z",
// "dt_bias", "softplus".
void SetGoldenShape(Params& p, const GoldenCase& g, Json d);

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
