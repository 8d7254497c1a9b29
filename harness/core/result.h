// The outcome taxonomy and the per-case record every mode, report and CLI
// shares (DESIGN section 6).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/core/tier.h"

namespace vt::conform {

enum class Outcome { kPassed, kFailedIncorrect, kFailedError, kMistrusted, kSkipped, kUnsupported };

std::string_view Name(Outcome o);
// FAILED_* and MISTRUSTED make a run fail; SKIPPED and UNSUPPORTED are counted
// with their reasons.
inline bool IsFailure(Outcome o) {
  return o == Outcome::kFailedIncorrect || o == Outcome::kFailedError || o == Outcome::kMistrusted;
}

struct CaseResult {
  std::string id;     // canonical case identity (+ "!error" / "#claim" / golden folder)
  std::string op;
  std::string mode;
  Tier tier = Tier::kCi;
  Outcome status = Outcome::kPassed;
  std::string reason;  // one line: what failed, why skipped / mistrusted
  std::string detail;  // multi-line: first bad elements, summaries
  std::string tolerance;  // "out: bound (why ...)" per output
  double headroom = NAN;  // worst error / allowed over all outputs
  // A partial verdict (compare.h): elements whose tolerance is wider than
  // their value, so passing them vouches for nothing - counted, not hidden.
  // `partial` says where ("out: 12 of 4096 nonzero elements not judged ...").
  int64_t unjudged = 0;
  std::string partial;
  nlohmann::ordered_json metrics = nlohmann::ordered_json::object();  // per output
  uint64_t seed = 0;
  std::string repro;  // the command that reruns exactly this case
  // isa mode: the tier a failure was seen on; the repro line passes it as --isa.
  std::string isa;
  double seconds = 0.0;
};

}  // namespace vt::conform
