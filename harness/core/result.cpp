#include "harness/core/result.h"

namespace vt::conform {

std::string_view Name(Outcome o) {
  switch (o) {
    case Outcome::kPassed: return "PASSED";
    case Outcome::kFailedIncorrect: return "FAILED_INCORRECT";
    case Outcome::kFailedError: return "FAILED_ERROR";
    case Outcome::kMistrusted: return "MISTRUSTED";
    case Outcome::kSkipped: return "SKIPPED";
    case Outcome::kUnsupported: return "UNSUPPORTED";
  }
  return "?";
}

}  // namespace vt::conform
