// The gate entries (gdn_g_beta, gdn_post_conv): one builder, GateSpec, and
// the pieces both share - the gate operands (a, b, a_log, dt_bias -> g_out,
// beta_out), their fills and branch edges, their oracle and tolerances, and
// the shape error cases.
#pragma once

#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "harness/catalog/seq_entry.h"

namespace vt::conform::gdn_gate {

// What one gate entry declares. GateSpec adds the rest: family gdn, the
// generator (DrawGate, then the hooks' draw: knobs after DrawGate's, empty:
// none), the Bounded oracle and the f32 definition of the hooks'
// Eval<Bounded> and Eval<float>, the contract (`operands`, then the gate operands;
// `scalars`), a and b as special-value carriers with the gate's branch
// edges, and the gate's shape error cases before the entry's own.
struct GateOp {
  std::string name;
  std::string dtypes;
  seq::Hooks<entry::Outs<entry::Bounded> (*)(const Case&), entry::Outs<float> (*)(const Case&)> hooks;
  std::vector<OutputSpec> (*outputs)(const Case&);
  std::vector<OperandRule> operands = {};
  std::vector<ScalarRule> scalars = {};
  std::vector<ErrorCase> errors = {};
  std::vector<Claim> claims = {};
};
OpSpec GateSpec(GateOp g);

// Params "ab" (a/b dtype), "T", "Hv", "pad" (a/b row padding), "scale".
void DrawGate(Params& p, Tier tier);
// a, b, a_log, dt_bias inputs and g_out, beta_out outputs ([T,Hv]).
void BuildGate(Case& c, int64_t tokens, int64_t hv);
// g_out / beta_out from the oracle at S (entry::Outs).
template <class S>
entry::Outs<S> EvalGate(const Case& c);
std::vector<OutputSpec> GateOutputs();

}  // namespace vt::conform::gdn_gate
