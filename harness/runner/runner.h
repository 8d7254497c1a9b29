// The runner: (ops x modes x cases) with sharding, a progress line, a repro
// line per failure and the final summary. The vt-conform CLI and the gtest
// suites both drive checks through it.
#include <functional>
#pragma once

#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "harness/modes/mode.h"
#include "reports/summarize.h"

namespace vt::conform {

struct Selection {
  std::vector<const OpSpec*> ops;
  std::vector<const Mode*> modes;
  std::string case_id;  // non-empty: run exactly this case (repro)
  int shard_index = 0, shard_count = 1;
};

struct Summary {
  std::vector<CaseResult> results;
  std::map<Outcome, int> counts;
  std::map<std::string, int> skip_reasons;  // reason -> count (SKIPPED and UNSUPPORTED)
  int partial_passes = 0;  // PASSED with elements the tolerance could not judge
  double seconds = 0.0;
  int failures() const;
  std::string FinalLine() const;  // "N passed, M failed, ..."
};

// A case counted SKIPPED because no reference can judge its draw
// (UnjudgeableDraw, harness/core/compare.h) has its reason start with this.
using reports::kUnjudgeablePrefix;

// The command line that reruns exactly one case.
std::string ReproCommand(const CaseResult& r, const RunConfig& cfg);
// The crash note (harness/core/crash_note.h) for a case about to run:
// "CRASHED op/mode id" and its repro command. Arms the handlers.
void NoteRunningCase(const CaseResult& started, const RunConfig& cfg);

// --isa NAME (empty: not given): the tier every call of this process runs
// unless it asks for its own. Sets VT_ISA - read once, at the first call that
// resolves a tier, so this must run before any kernel - and returns the tier
// for RunConfig::isa. A tier this CPU does not run is refused (throws
// std::runtime_error naming it): a forced tier is run or refused, never
// replaced by another behind the user's back.
vt::Isa ApplyIsaFlag(const std::string& name);
// The tier ApplyIsaFlag applied (kAuto: none), for RunConfigs built later.
vt::Isa FlagIsa();

// Runs the selection. Progress and failures go to `log` as they happen.
Summary RunSelection(const Selection& sel, const RunConfig& cfg, std::ostream& log, bool progress = true);

// Runs one (op, mode) pair's cases without printing (gtest suites).
std::vector<CaseResult> RunOpMode(const OpSpec& op, const Mode& mode, const RunConfig& cfg);

}  // namespace vt::conform
