// The "summary" and "matrix" of a results document, computed from its cases.
// One function for every producer (vt-conform, vt-golden, vt-report merge), so
// a merged document counts exactly as the unsharded run would have.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vt::reports {

using Json = nlohmann::ordered_json;

// The version of the results document (reports/results.schema.json,
// reports/SCHEMA.md). Bumped on any change a reader must know about.
inline constexpr int kSchemaVersion = 2;

// FAILED_INCORRECT, FAILED_ERROR and MISTRUSTED make a run fail.
bool IsFailureStatus(const std::string& status);
// SKIPPED and UNSUPPORTED: counted with their reasons, never run.
bool IsSkipStatus(const std::string& status);

struct Tally {
  std::map<std::string, int> status;        // "PASSED" -> n, ...
  std::map<std::string, int> skip_reasons;  // reason -> n (SKIPPED and UNSUPPORTED)
  int partial = 0;                          // PASSED with elements not judged
};

Tally TallyOf(const Json& cases);
// {"passed", "failed_incorrect", ..., "passed_partial", "final_line"}; the
// final line reads "N passed, M failed, K skipped (reasons)".
Json SummaryJson(const Tally& t);
// The reason of a case counted SKIPPED because no reference can judge its
// draw (all-zero, mostly-zero or all-NaN reference: harness/core/compare.h
// UnjudgeableDraw) starts with this (vt-conform, vt-fuzz).
inline constexpr const char* kUnjudgeablePrefix = "this draw cannot be judged by any reference: ";
// Such draws are the draw's fault one by one, but common in one op and mode
// they are a lost signal - an oracle, or a kernel and its oracle at once,
// writing zeros everywhere makes every draw "all zero": one line
// "op/mode: k of n cases could not be judged ..." per op and mode where they
// are more than kMaxUnjudgeableShare of its cases and at least
// kMinUnjudgeableToFail (docs/tolerance.md). vt-conform fails on any line.
// Why these numbers: valid ops draw few such cases (ci tier, all 62 ops,
// three seeds: at most 2 in the whole catalog per run), a zeroing bug
// nearly all (mul_scalar's kernel and oracle zeroed: 61 of 64); a tenth
// sits far from both, and "at least three" keeps one or two unlucky draws
// in a small op/mode (10 cases: 1 is a tenth) a skip.
inline constexpr double kMaxUnjudgeableShare = 0.10;
inline constexpr int kMinUnjudgeableToFail = 3;
std::vector<std::string> LostSignal(const Json& cases);
// The line for one op and mode that checked `cases` cases, `unjudgeable` of
// them unjudgeable draws; "" when that is no lost signal (vt-fuzz counts
// its cases per mode instead of listing them).
std::string LostSignalLine(const std::string& op, const std::string& mode, int unjudgeable, int cases);
// The reason a skip is counted under in a final line: itself, except that an
// unjudgeable draw's parenthesised counts ("mostly zero (109 of 112
// elements; ...)") are dropped, so such draws group by what made them.
std::string SkipGroup(const std::string& reason);
// op -> mode -> {passed, failed, skipped, partial, max_headroom}.
Json MatrixOf(const Json& cases);
// doc["summary"] and doc["matrix"] from doc["cases"].
void Summarize(Json& doc);

}  // namespace vt::reports

namespace vt::reports {

// One line per op family, in the order families first appear:
// "norm: 7 ops, 560 passed, 0 failed, 2 skipped" (cases without a family
// count under "-").
std::vector<std::string> FamilyLines(const Json& cases);

}  // namespace vt::reports
