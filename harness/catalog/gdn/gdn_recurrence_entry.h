// The GDN recurrence entries (gdn_prefill, gdn_decode, gdn_spec_decode,
// gdn_packed_decode): one builder, RecurrenceSpec, and the pieces the four
// share - head shapes, operand fills, the baseline tolerance, the metadata
// (offsets, slots) generators and their error cases. An entry says what
// differs: its draws, build and run call, the recurrence it evaluates, which
// outputs it must leave exact, its operands, error cases, claims and goldens.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "harness/catalog/seq_entry.h"
#include "oracles/gdn/gdn_prefill.h"

namespace vt::conform::gdn_entry {

// Which out rows (one per token, [Hv,Dv]) and state slots the op must leave
// at an exact value: a NULL request's zero-filled row, a slot no request
// writes. Those are held to equality with the f32 definition (Expected::f32,
// infinite bound) instead of the tolerance. Empty: none.
struct ExactRows {
  std::vector<bool> out, state;
};
// Request b on slot idx[b] (< 0: NULL, its out row zero-filled). With
// `cache`, every slot no request names is exact; without, the state's rows
// are the requests' own (none exact).
ExactRows SlotRows(const std::vector<int64_t>& idx, int64_t requests, int64_t slots, bool cache);

// What one recurrence entry declares. RecurrenceSpec adds the rest: family
// gdn, the generator around the hooks' draw, the oracle (the baseline rule
// of out and state over the hooks' Eval<double> and Eval<float>, the `exact`
// elements held to the f32 definition), the f32 definition, the out/state
// tolerances, scale > 0, and the head-shape error cases rebuilt through the
// hooks' build after the entry's own.
struct Recurrence {
  std::string name;
  std::string dtypes;
  seq::Hooks<oracle::GdnResult<double> (*)(const Case&), oracle::GdnResult<float> (*)(const Case&)> hooks;
  ExactRows (*exact)(const Case&);
  std::vector<OperandRule> operands;
  std::vector<ErrorCase> errors;
  std::vector<Claim> claims = {};
  std::vector<GoldenAdapter> goldens = {};
};
OpSpec RecurrenceSpec(Recurrence r);

// Draws the head shape "Hk", "ratio" (Hv = Hk * ratio), "Dk", "Dv", the
// dtypes "qk", "v", "out", the query scale kind "sk" (rsqrt: Dk^-1/2 rounded
// to f32, as vLLM passes it; pow2: 0.25, exact in every product), the log
// decay range "decay" and the state's initial contents "init", then sets
// "scale" (ScaleOf). `packed`: no dtypes and no scale (gdn_packed_decode
// draws its one activation dtype, then sets the scale itself).
void DrawHeads(Params& p, Tier tier, bool packed = false);
// A golden's head shape as DrawHeads' knobs (rsqrt scale kind, mild decay,
// unit state: what the generator would name such a case).
void SetHeads(Params& p, int64_t hk, int64_t hv, int64_t dk, int64_t dv);
oracle::GdnDims Dims(const Params& p);
float ScaleOf(const Params& p);
// The largest token count keeping a case near `budget` multiply-adds.
int64_t TokenBudget(const Params& p, int64_t budget);

// q, k [T,Hk,Dk] with L2-normalised rows (as the op expects), v [T,Hv,Dv],
// g [T,Hv] (log decay <= 0 per "decay"), beta [T,Hv] in [0,1].
void AddTokenInputs(Case& c, int64_t tokens);
// The per-token inputs, in AddTokenInputs' order.
inline constexpr const char* kTokenInputs[] = {"q", "k", "v", "g", "beta"};
// The state operand [slots,Hv,Dv,Dk] (dtype `dt`), in place, per "init".
void AddState(Case& c, int64_t slots, vt::DType dt = vt::DType::kF32);
// out [T,Hv,Dv] of dtype "out".
void AddOut(Case& c, int64_t tokens);

// `count` distinct slots in [0, slots) in a seed-derived order; `nulls` of the
// positions (never more than a third) replaced by -1.
std::vector<int64_t> DrawSlots(uint64_t seed, const std::string& stream, int64_t count, int64_t slots,
                               int64_t nulls);

// Rows [lo, hi) of dim 0 of t as a new contiguous tensor.
TensorData LeadingRows(const TensorData& t, int64_t lo, int64_t hi, const std::string& name, Role role);
// Tokens [lo, hi) of each per-token input (kTokenInputs), as new inputs.
std::vector<TensorData> TokenRows(const Case& c, int64_t lo, int64_t hi);
// The offsets [0, len] of one sequence: an i32 input named `name`.
TensorData OneSequence(const std::string& name, int64_t len);
// q, k, v [T,H,D] and g, beta [T,Hv] (float inputs, contiguous), the
// entry's metadata `meta`, then the f32 state and out written.
std::vector<OperandRule> TokenOperands(std::vector<OperandRule> meta);
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

}  // namespace vt::conform::gdn_entry
