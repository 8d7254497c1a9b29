// The causal conv entries (causal_conv1d_fwd, causal_conv1d_update,
// causal_conv1d_spec_update): one builder, ConvSpec, and the pieces the three
// share - the common knobs (dtypes of x / weight / bias / out, channels C,
// kernel width K, activation, x row padding, input scale), the operands built
// from them, the slot draws, the outputs' tolerance rules, the golden
// adapters' common steps and the update-token-by-token side of the claims.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "harness/catalog/seq_entry.h"
#include "vt/ops_conv.h"

namespace vt::conform {
struct GoldenCase;
}

namespace vt::conform::conv {

// What one conv entry declares. ConvSpec adds the rest: family conv, the
// generator (DrawCommon with `min_k`, then the hooks' draw), the Bounded
// oracle and f32 definition of the hooks' Eval<Bounded> / Eval<float>, the
// out and conv_state rules, the contract (out, x, weight, bias, conv_state,
// then `operands`), the special value carriers x, weight, conv_state, and
// the shape error cases all three share before the entry's own.
struct ConvOp {
  std::string name;
  std::string dtypes;
  int64_t min_k;
  seq::Hooks<entry::Outs<entry::Bounded> (*)(const Case&), entry::Outs<float> (*)(const Case&)> hooks;
  std::vector<OperandRule> operands;
  std::vector<ErrorCase> errors;
  std::vector<Claim> claims;
  std::vector<GoldenAdapter> goldens = {};
};
OpSpec ConvSpec(ConvOp op);

// Channels: 1, odd sizes around the powers of two, and model-like widths.
rc::Gen<int64_t> Channels(Tier t);
// Draws x / w / bias / out dtypes, C, K (>= min_k), silu, pad, scale.
void DrawCommon(Params& p, Tier t, int64_t min_k);
// x [rows, C] (row padding "pad"), weight [C,K], bias [C] when drawn.
void BuildCommon(Case& c, int64_t rows);
vt::CausalConv1dArgs Args(const Params& p);

// `m` slot indices into `n` slots: distinct live values in a seed-shuffled
// order, n-1 included where m allows; with `nulls`, about one row in four is
// -1 (at most a quarter of the rows).
std::vector<int64_t> DrawSlots(uint64_t seed, int64_t m, int64_t n, bool nulls);

// The live slot of one row repeated in another live row (H-2).
ErrorCase DuplicateSlot(const std::string& tensor);

// causal_conv1d_update run token by token, the claims' second side: step t
// updates, in one call, every sequence s with live[s] that is longer than t
// (tokens [starts[s], starts[s+1]) of c's x), its state being row s of
// `state` (a compact [S, C, K-1] f32 state, updated in place); each step's
// out rows land at their tokens in `got` (out's values, [T, C]). Returns
// "" or the step's guard error.
std::string UpdateTokenByToken(const Case& c, const vt::ExecContext& ctx, const std::vector<int64_t>& starts,
                               const std::vector<bool>& live, TensorData& state, std::vector<double>& got);

// bias values, or empty.
std::vector<double> BiasValues(const Case& c);

// A golden's activation: silu / swish (true) or none / identity (false);
// any other is unsupported.
bool GoldenSilu(const GoldenCase& g);
// A golden's weight as [dim, width] (torch's conv1d weight is [dim, 1, width]).
TensorData GoldenWeight(const GoldenCase& g);
// The CPU conv_state is f32: another dtype is unsupported.
void RequireF32State(const GoldenCase& g);
// A golden's dtypes as the knobs "x", "w", "bias" (none when absent), "out".
void SetGoldenDtypes(Params& p, const GoldenCase& g, const TensorData& x, const TensorData& w, const TensorData& out);

}  // namespace vt::conform::conv
