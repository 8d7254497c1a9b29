// Pieces the gdn_g_beta and gdn_post_conv catalog entries share: the gate
// operands (a, b, a_log, dt_bias -> g_out, beta_out), their fills and branch
// edges, their oracle and tolerances, and the shape error cases.
#pragma once

#include <string>
#include <vector>

#include "harness/catalog/entry.h"

namespace vt::conform::gdn_gate {

// Params "ab" (a/b dtype), "T", "Hv", "pad" (a/b row padding), "scale".
void DrawGate(Params& p, Tier tier);
// a, b, a_log, dt_bias inputs and g_out, beta_out outputs ([T,Hv]).
void BuildGate(Case& c, int64_t tokens, int64_t hv);
// g_out / beta_out from the oracle at S (entry::Outs).
template <class S>
entry::Outs<S> EvalGate(const Case& c);
std::vector<OutputSpec> GateOutputs();
// Branch edges: the softplus guard at 20 and the exp overflow past 88.7 for
// a (+ dt_bias), the sigmoid's exp edges for b.
std::vector<ValueBand> GateEdges(const Params& p);
// The contract rows of the gate operands (g_out written; the rest read).
std::vector<OperandRule> GateOperands();
// Shape relations of the gate operands, one broken at a time.
std::vector<ErrorCase> GateShapeErrors();

}  // namespace vt::conform::gdn_gate
