// Check coverage: which validator check sites (vt/check_sites.h) an op's
// valid cases reach, and which of them refuse at least one of its error
// cases. Every site must be both: reached by valid input (else a branch of
// the validator is never exercised by the generators) and the reason some
// error case is refused (else deleting or weakening that condition would go
// unnoticed). The negative mode reports this per op as the case
// "<op>!check_coverage", which fails the gate when a site is uncovered.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "harness/catalog/op_spec.h"
#include "harness/modes/mode.h"

namespace vt::conform {

// The error cases the negative mode runs: each error case on the first
// `DrawCount("negative")` drawn valid cases it applies to. `unused` lists the
// error cases that apply to none of them, with the number of cases tried.
struct ErrorDraws {
  std::vector<std::pair<const ErrorCase*, Params>> runs;
  std::vector<std::pair<const ErrorCase*, std::size_t>> unused;
};
ErrorDraws DrawErrorCases(const OpSpec& op, const RunConfig& cfg);

// One error case run in-process at 1 thread: did the op refuse it, where, and
// did every byte survive.
struct Attempt {
  bool refused = false;       // threw vt::Error
  std::string refusing_op;    // vt::Error::op()
  std::string site;           // vt::Error::site()
  std::string condition;      // vt::Error::condition()
  std::string what;           // the whole message (or the foreign exception's)
  bool foreign_exception = false;
  std::string changed;        // "" when guards and every operand byte are intact
};
Attempt AttemptErrorCase(const OpSpec& op, const ErrorCase& ec, const Case& mutated,
                         std::set<std::string>* evaluated_sites);

// Whether a refusal's condition names what the error case broke
// (ErrorCase::expect: '|'-separated fragments; empty: any refusal).
bool NamesTheViolation(const std::string& condition, const std::string& expect);

struct CheckCoverage {
  std::set<std::string> valid;                  // reached by valid cases
  std::set<std::string> by_errors;              // reached while running error cases
  std::map<std::string, std::string> refused;   // site -> first error case refused there
  int valid_cases = 0;
  int error_runs = 0;

  std::set<std::string> AllSites() const;
  std::vector<std::string> Uncovered() const;   // no error case is refused there
  std::vector<std::string> Unreached() const;   // no valid case reaches it
  std::string ToText() const;                   // one line per site
  std::string Serialize() const;
  static CheckCoverage Deserialize(const std::string& s);
};

CheckCoverage MeasureCheckCoverage(const OpSpec& op, const RunConfig& cfg);

}  // namespace vt::conform
