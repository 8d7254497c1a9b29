// The KDA entries (kda_gated_delta_rule, kda_chunk_prefill): one builder,
// KdaSpec, and the pieces both share - the recurrence operands, their draws
// and fills, the baseline tolerances, the shape and varlen-metadata error
// cases, the sequence-slice and two-call claims and the golden adapter.
#pragma once

#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "harness/catalog/seq_entry.h"
#include "oracles/gdn/kda_gated_delta_rule.h"

namespace vt::conform::kda {

// What one KDA entry declares. KdaSpec adds the rest: family gdn, the
// generator (Draw, then the hooks' draw: knobs after Draw's, empty: none),
// the oracle (the baseline rule over the hooks' Eval<double> and
// Eval<float>), the f32 definition, the tolerances, the contract
// (Operands(gate), then `operands`; scale > 0), the shape and
// query_start_loc error cases before the entry's own, and the golden adapter
// of the entry's name.
struct KdaOp {
  std::string name;
  std::string dtypes;
  std::string gate;  // the gate tensor: "g" or "g_raw"
  bool one_sequence;
  seq::Hooks<oracle::KdaResult<double> (*)(const Case&), oracle::KdaResult<float> (*)(const Case&)> hooks;
  std::vector<OperandRule> operands = {};
  std::vector<ErrorCase> errors = {};
  std::vector<Claim> claims = {};
};
OpSpec KdaSpec(KdaOp k);

// Params "x" (q/k/v dtype), "out", "Hk", "group" (Hv / Hk), "Dk", "Dv",
// "lens" (tokens per sequence), "scale" (the op's q scale). one_sequence:
// kda_chunk_prefill's single sequence.
void Draw(Params& p, Tier tier, bool one_sequence);
// q, k, v, beta, state (in place), query_start_loc, out; the gate tensor
// (`gate`: "g" or "g_raw") [T,Hv,Dk] f32 with `gate_fill`.
void Build(Case& c, const std::string& gate, Fill gate_fill);

oracle::KdaDims Dims(const Case& c);
std::vector<int64_t> Loc(const Case& c);

// Batch invariance: a sub-range of the sequences run alone (its tokens, its
// state rows, query_start_loc rebased) gives the same out rows and final states.
Claim SequenceSlice();
// Chunked prefill: one sequence's tokens [0, m) in one call, then [m, T) in a
// second call starting from the first call's final state, give the same out
// rows and final state as one call over [0, T).
Claim TwoCalls();

}  // namespace vt::conform::kda
