// Shared pieces of the GDN recurrence entries (gdn_prefill, gdn_decode,
// gdn_spec_decode, gdn_packed_decode): head shapes, operand fills, the
// baseline tolerance and the metadata (offsets, slots) generators.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "oracles/gdn/gdn_prefill.h"

namespace vt::conform::gdn_entry {

// Draws the head shape "Hk", "ratio" (Hv = Hk * ratio), "Dk", "Dv", the
// dtypes "qk", "v", "out", the query scale kind "sk" (rsqrt: Dk^-1/2 rounded
// to f32, as vLLM passes it; pow2: 0.25, exact in every product), the log
// decay range "decay" and the state's initial contents "init".
void DrawHeads(Params& p, Tier tier, bool packed = false);
oracle::GdnDims Dims(const Params& p);
float ScaleOf(const Params& p);
// The largest token count keeping a case near `budget` multiply-adds.
int64_t TokenBudget(const Params& p, int64_t budget);

// q, k [T,Hk,Dk] with L2-normalised rows (as the op expects), v [T,Hv,Dv],
// g [T,Hv] (log decay <= 0 per "decay"), beta [T,Hv] in [0,1].
void AddTokenInputs(Case& c, int64_t tokens);
// The state operand [slots,Hv,Dv,Dk] (dtype `dt`), in place, per "init".
void AddState(Case& c, int64_t slots, vt::DType dt = vt::DType::kF32);
// out [T,Hv,Dv] of dtype "out".
void AddOut(Case& c, int64_t tokens);

// i32 metadata holding exactly `values` (kept across re-materialisation).
TensorData& AddI32(Case& c, const std::string& name, std::vector<int64_t> shape, const std::vector<int64_t>& values);
std::vector<int64_t> I32Values(const TensorData& t);
// The values AddI32 declared (readable before the case is materialised).
std::vector<int64_t> Declared(const TensorData& t);
void SetDeclared(TensorData& t, const std::vector<int64_t>& values);

// `count` distinct slots in [0, slots) in a seed-derived order; `nulls` of the
// positions (never more than a third) replaced by -1.
std::vector<int64_t> DrawSlots(uint64_t seed, const std::string& stream, int64_t count, int64_t slots,
                               int64_t nulls);

// The baseline rule for one output: the double truth, the float evaluation,
// and which elements the op must leave at an exact value (untouched state
// slots, zero-filled NULL rows): those are held to equality with the f32
// definition instead of the tolerance (Expected::f32, infinite bound).
Expected BaselineOf(const std::vector<double>& truth, const std::vector<float>& f32, oracle::Fmt fmt,
                    const std::vector<bool>& exact);
// Element mask from a per-row mask (row = `row_elems` consecutive elements).
std::vector<bool> ExpandRows(const std::vector<bool>& rows, int64_t row_elems);

// The output tolerances: c = 2 over the float evaluation (why: the reason text).
Tolerance OutTolerance();
Tolerance StateTolerance();

// Error case: rebuild the case after changing one param (a shape relation
// broken at its source, e.g. Hk that does not divide Hv).
ErrorCase ParamError(const std::string& name, const std::string& expect, std::function<bool(Params&)> edit,
                     std::function<void(Case&)> build);
// The head-shape conditions, one error case each, rebuilt through `build`:
// Hv not a multiple of Hk, Dk = 0, Dv = 0.
std::vector<ErrorCase> HeadErrors(std::function<void(Case&)> build);
// Error case: edit the declared values of an i32 metadata tensor.
ErrorCase MetaError(const std::string& name, const std::string& tensor, const std::string& expect,
                    std::function<bool(std::vector<int64_t>&, const Case&)> edit);

// Pieces the four entries declare alike.
// The f32 definition's outputs (out, state) and their tolerances.
std::map<std::string, std::vector<double>> OutAndStateF32(const oracle::GdnResult<float>& f);
std::vector<OutputSpec> OutAndStateOutputs();
// Rows [lo, hi) of dim 0 of t as a new contiguous tensor.
TensorData LeadingRows(const TensorData& t, int64_t lo, int64_t hi, const std::string& name, Role role);
// q, k, v [T,H,D] and g, beta [T,Hv] (float inputs, contiguous), then `rest`.
std::vector<OperandRule> TokenOperandsAnd(std::vector<OperandRule> rest);
// The shape relations of q/k/v/g/beta/out/state, one extent broken each.
std::vector<ErrorCase> TokenDimErrors();
// A cumulative offsets tensor ([0, ..., T], non-decreasing): first not 0,
// last past T, a later step decreasing, the first step decreasing (a check
// that starts its loop one pair late misses only that one). Names
// prefix + "_first_nonzero" etc.
std::vector<ErrorCase> CumulativeErrors(const std::string& prefix, const std::string& tensor);
// Live state slots: one out of range, one duplicated (a parallel race).
std::vector<ErrorCase> SlotErrors(const std::string& tensor);

}  // namespace vt::conform::gdn_entry

namespace vt::conform {
struct GoldenCase;
}

namespace vt::conform::gdn_entry {

// A gdn_packed_decode case from a golden's separate q [B,Hk,Dk], k, v [B,Hv,Dv],
// a, b [B,Hv], A_log, dt_bias [Hv] and state_in [B,Hv,Dv,Dk] (cache line b =
// request b): mixed_qkv = [q | k | v] per row, state_idx 0..B-1. `p` carries
// the head shape and scale; compare out and state against `out`/`state_out`.
GoldenMapping MapPackedFromParts(const GoldenCase& g, Params p, const std::string& out, const std::string& state_out);

// A poisoned contiguous output of `dtype` shaped like `like`.
TensorData PoisonedLike(const std::string& name, vt::DType dtype, const std::vector<int64_t>& shape);

}  // namespace vt::conform::gdn_entry
