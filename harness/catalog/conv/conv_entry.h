// Pieces the causal conv catalog entries share: the common knobs (dtypes of
// x / weight / bias / out, channels C, kernel width K, activation, x row
// padding, input scale), the operands built from them, metadata tensors whose
// values are part of the case (offsets, slots, accepted counts), and the
// outputs' tolerance rules.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "vt/ops_conv.h"

namespace vt::conform::conv {

// Channels: 1, odd sizes around the powers of two, and model-like widths.
rc::Gen<int64_t> Channels(Tier t);
// Draws x / w / bias / out dtypes, C, K (>= min_k), silu, pad, scale.
void DrawCommon(Params& p, Tier t, int64_t min_k);
// x [rows, C] (row padding "pad"), weight [C,K], bias [C] when drawn.
void BuildCommon(Case& c, int64_t rows);
vt::CausalConv1dArgs Args(const Params& p);

// Metadata tensors: values fixed through the fill's overrides, so every
// re-materialisation (a mutated error case, another layout) keeps them.
TensorData& AddInts(Case& c, const std::string& name, vt::DType dt, const std::vector<int64_t>& values);
std::vector<int64_t> Ints(const TensorData& t);          // a materialised tensor's values
std::vector<int64_t> Declared(const TensorData& t);      // the values AddInts / SetInts declared
void SetInts(TensorData& t, const std::vector<int64_t>& values);
std::vector<int64_t> Cumulative(const std::vector<int64_t>& lens);  // [0, l0, l0+l1, ...]

// `m` slot indices into `n` slots: distinct live values in a seed-shuffled
// order, n-1 included where m allows; with `nulls`, about one row in four is
// -1 (at most a quarter of the rows).
std::vector<int64_t> DrawSlots(uint64_t seed, int64_t m, int64_t n, bool nulls);

// An error case that edits one metadata tensor's declared values; edit
// returns false when it cannot apply to the case.
ErrorCase EditInts(const std::string& name, const std::string& tensor, const std::string& expect,
                   std::function<bool(std::vector<int64_t>&, const Case&)> edit);
// The live slot of one row repeated in another live row (H-2).
ErrorCase DuplicateSlot(const std::string& tensor);
// conv_state one tap narrower than K-1 (K >= 2).
// What the three conv entries declare alike: out, x (rows may be padded),
// weight, bias, the f32 conv_state (in place), then `rest`; the special-value
// carriers x, weight, conv_state; the shape relations of weight, bias, out
// and conv_state's channel dim, one extent broken each.
// causal_conv1d_update run token by token, the claims' second side: step t
// updates, in one call, every sequence s with live[s] that is longer than t
// (tokens [starts[s], starts[s+1]) of c's x), its state being row s of
// `state` (a compact [S, C, K-1] f32 state, updated in place); each step's
// out rows land at their tokens in `got` (out's values, [T, C]). Returns
// "" or the step's guard error.
std::string UpdateTokenByToken(const Case& c, const vt::ExecContext& ctx, const std::vector<int64_t>& starts,
                               const std::vector<bool>& live, TensorData& state, std::vector<double>& got);

std::vector<OperandRule> CoreOperandsAnd(std::vector<OperandRule> rest);
std::vector<SpecialCarrier> CoreSpecials();
std::vector<ErrorCase> CoreDimErrors();

ErrorCase NarrowState();
// weight's kernel width 0 (K >= 1 required).
ErrorCase ZeroWidth();

// Common tolerance rules.
OutputSpec OutRule();
OutputSpec StateRule();

// bias values, or empty.
std::vector<double> BiasValues(const Case& c);

}  // namespace vt::conform::conv
