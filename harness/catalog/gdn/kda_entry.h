// Pieces the kda_gated_delta_rule and kda_chunk_prefill catalog entries share:
// the recurrence operands, their draws and fills, the baseline tolerances, the
// shape and varlen-metadata error cases and the sequence-slice claim.
#pragma once

#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "oracles/gdn/kda_gated_delta_rule.h"

namespace vt::conform::kda {

// Params "x" (q/k/v dtype), "out", "Hk", "group" (Hv / Hk), "Dk", "Dv",
// "lens" (tokens per sequence), "scale" (the op's q scale). one_sequence:
// kda_chunk_prefill's single sequence.
void Draw(Params& p, Tier tier, bool one_sequence);
// q, k, v, beta, state (in place), query_start_loc, out; the gate tensor
// (`gate`: "g" or "g_raw") [T,Hv,Dk] f32 with `gate_fill`.
void Build(Case& c, const std::string& gate, Fill gate_fill);

oracle::KdaDims Dims(const Case& c);
std::vector<int64_t> Loc(const Case& c);

// The double truth and the float baseline as the oracle mode's Expected.
OracleResult Want(const oracle::KdaResult<double>& truth, const oracle::KdaResult<float>& baseline,
                      const Case& c);
std::map<std::string, std::vector<double>> F32Values(const oracle::KdaResult<float>& r);
std::vector<OutputSpec> Outputs();

std::vector<OperandRule> Operands(const std::string& gate);
std::vector<ErrorCase> ShapeErrors(const std::string& gate);
// query_start_loc values: first != 0, last != T and, with several sequences
// (`multi`), a decreasing step and a negative interior value.
std::vector<ErrorCase> MetadataErrors(bool multi);

// Batch invariance: a sub-range of the sequences run alone (its tokens, its
// state rows, query_start_loc rebased) gives the same out rows and final states.
Claim SequenceSlice();
// Chunked prefill: one sequence's tokens [0, m) in one call, then [m, T) in a
// second call starting from the first call's final state, give the same out
// rows and final state as one call over [0, T).
Claim TwoCalls();

// vt-golden regen's KDA goldens (golden/regen/vt_regen/ops_ssm.py, fla's
// fused_recurrent_kda [after fused_kda_gate] through the Triton interpreter):
// q, k, v (one dtype), the gate tensor `gate` ("g" or "g_raw"), beta,
// state_in, query_start_loc [, A_log, dt_bias]; compared: out, state_out.
GoldenMapping Golden(const GoldenCase& g, const std::string& op, const std::string& gate);

}  // namespace vt::conform::kda
