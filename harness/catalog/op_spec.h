// OpSpec: everything the harness knows about one op, declared once (DESIGN
// section 4). Every check mode, the fuzzer, the golden checker and the reports
// iterate the catalog of these; no mode keeps its own op list.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "harness/catalog/contract.h"
#include "harness/catalog/values.h"
#include "harness/core/case.h"
#include "harness/core/compare.h"
#include "harness/core/tier.h"
#include "harness/core/tolerance.h"
#include "harness/core/workspace.h"
#include "harness/golden/mapping.h"
#include "vt/context.h"

namespace vt::conform {

struct OpSpec;

// One output (or in-place operand) and its tolerance rule (with its reason).
struct OutputSpec {
  std::string tensor;
  Tolerance tol;
  // Exact codes (fp4 payloads, block scales and their zero padding): a zero
  // is a value the kernel must write over the poisoned output, not a vacuous
  // match, so the zero-fraction trust rules do not apply to this output.
  bool zeros_are_data = false;
};

using OracleResult = std::map<std::string, Expected>;

// One violated precondition. mutate() edits a valid case (specs, args, knobs;
// the harness re-materialises it) and returns false when it cannot apply to
// that case (e.g. no residual to corrupt).
struct ErrorCase {
  ErrorCase() = default;
  ErrorCase(std::string n, std::function<bool(Case&)> m, std::string e = "",
            std::function<void(Workspace&)> b = {})
      : name(std::move(n)), mutate(std::move(m)), expect(std::move(e)), bind(std::move(b)) {}

  std::string name;
  std::function<bool(Case&)> mutate;
  // A fragment the refusal's condition must contain (the operand or argument
  // that is broken), so that a case refused for some other reason - e.g. a
  // check that only fires by accident - does not count. Alternatives are
  // separated by '|' (a shape change may be reported from either side of the
  // relation: "x ..." or "out must be [...]"). Empty: any refusal.
  std::string expect;
  // Optional: corrupt the bound views after the workspace is built (fields a
  // TensorData cannot describe: rank 0 or 5, an unknown dtype, a negative
  // extent or stride, an extent whose element count overflows).
  std::function<void(Workspace&)> bind;
};

struct ClaimOutcome {
  enum class Status { kHolds, kViolated, kNotApplicable };
  Status status = Status::kHolds;
  std::string detail;
  static ClaimOutcome Holds() { return {Status::kHolds, ""}; }
  static ClaimOutcome Violated(std::string d) { return {Status::kViolated, std::move(d)}; }
  static ClaimOutcome NotApplicable(std::string d) { return {Status::kNotApplicable, std::move(d)}; }
};

// An executable "bit-identical to" statement the op takes part in.
struct Claim {
  std::string name;       // short, used in case ids: rms_norm(...)#name
  std::string statement;  // one sentence for reports
  std::function<bool(const Params&)> applies;  // empty: every case
  std::function<ClaimOutcome(const OpSpec&, const Case&, const vt::ExecContext&)> check;
};

struct OpSpec {
  std::string name;
  std::string family;
  std::string dtypes;  // supported dtypes per backend, for reports and --list

  std::function<rc::Gen<Params>(Tier)> gen;   // valid cases
  std::function<void(Case&)> build;           // tensors (specs + fills) from params
  std::function<void(const vt::ExecContext&, const Workspace&)> run;
  std::function<OracleResult(const Case&)> oracle;  // Bounded oracle, logical order
  // Optional, for ops with selection outputs (top-k ids): the Bounded oracle
  // given the kernel's result. Where the truth cannot order candidates (ties,
  // exact or within the bound) any order the spec allows is right, so a row
  // whose picks are such an order is judged against them - ids, and the
  // weights that choice implies - and any other row against the oracle's own
  // picks (a pick outside the tied set still fails). The oracle and cuda
  // modes use it instead of `oracle` when set; the spec's own tie rule is
  // pinned by the f32 definition (claims.h F32Definition).
  std::function<OracleResult(const Case& in, const Case& got)> oracle_given;
  // The same oracle at S = float: the definition evaluated in f32 in the
  // spec's order with its rounding points. The seed fixes that order, so the
  // kernel must reproduce these bytes (claim F32Definition, claims.h).
  std::function<std::map<std::string, std::vector<double>>(const Case&)> oracle_f32;
  // Optional, for ops whose outputs are defined bit for bit, NaN payloads
  // included (copies, casts, gathers): every written operand's expected
  // logical bytes (a contiguous TensorData per operand, named as in the
  // case). The oracle mode compares them byte for byte on every case, with
  // no NaN latitude (DiffBytes any_nan = false).
  std::function<std::vector<TensorData>(const Case&)> oracle_bytes;
  std::function<std::vector<OutputSpec>(const Case&)> outputs;
  // Operands, dtype sets, layouts, written operands and scalar ranges: the
  // catalog derives error cases from it (contract.h) and appends them to the
  // hand-written ones in `errors` (shape relations, op-specific arguments).
  Contract contract;
  std::vector<ErrorCase> errors;
  // Which inputs may carry special values and the op's branch-edge bands: the
  // "values" knob (harness/catalog/values.h) puts them there.
  ValueDecl values;
  std::vector<Claim> claims;
  std::vector<GoldenAdapter> goldens;

  // A reference with more zeros than this fraction is MISTRUSTED.
  double max_zero_fraction = 0.5;
};

// Params -> built and materialised case.
Case MakeCase(const OpSpec& op, const Params& p);
// Params -> tensor specs only (shapes, dtypes, strides; no storage): enough
// to size a case or to see whether an error case applies to it.
Case BuildCase(const OpSpec& op, const Params& p);
// Logical elements over all tensors of a case.
int64_t CaseElements(const Case& c);
// A case id typed by hand (a repro line, edited) must hold each knob in the
// kind the op's generator draws it: an integer where it draws integers
// ("T=2.5" refused), a number where it draws numbers, a name where names.
// Throws std::invalid_argument naming the knob; knobs the generator never
// draws are left to the op.
void CheckKnobKinds(const OpSpec& op, const Params& p);

// Run the op once on a copy of the case. `after` holds every tensor's bytes
// after the run; `guard_error` is non-empty when a guard or gap was written.
// Exceptions from the op propagate.
struct Execution {
  Case after;
  std::string guard_error;
};
Execution Execute(const OpSpec& op, const Case& c, const vt::ExecContext& ctx);

}  // namespace vt::conform
