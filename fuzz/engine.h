// The fuzzing loop of one op (draw, steer, check, shrink, save) and the replay
// of saved cases. vt_fuzz.cpp is only the command line around these.
#pragma once

#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz/campaign.h"
#include "harness/modes/mode.h"
#include "harness/upstream/upstream_check.h"

namespace vt::conform::fuzz {

struct Settings {
  uint64_t seed = 0;
  Tier tier = Tier::kFull;
  int max_cases = 0;    // 0: no limit
  double seconds = 0;   // 0: no limit
  std::vector<int> threads;
  std::vector<std::string> modes;   // already filtered to those the op covers
  std::vector<std::string> dtypes;  // empty: any
  std::string save_dir;
  int shard_index = 0, shard_count = 1;
  bool quiet = false;
  // --upstream: every case is held to upstream vLLM instead of the modes
  // (values without non-finite specials, no stride padding, draws steered to
  // cases the runner key can express); failures are saved as golden folders.
  upstream::Checker* upstream = nullptr;
};

struct Found {
  CaseResult first;     // as drawn
  CaseResult shrunk;    // after shrinking
  int shrink_steps = 0;
  std::string saved;    // folder, or "" when saving failed / was a repeat
  bool repeat = false;  // same signature as an earlier failure: not shrunk again
};

struct OpReport {
  std::string op;
  int cases = 0, failed = 0;
  int skipped_cases = 0;  // --upstream: cases the runner key could not express (counted in cases)
  std::string last_skip;  // the reason of the last of them
  // mode -> (draws no reference could judge, checks) over the drawn cases
  // (not the shrinking's): an op and mode where most draws cannot be judged
  // has lost its signal (reports::LostSignalLine) - a failure of the run.
  std::map<std::string, std::pair<int, int>> judged;
  double seconds = 0;
  std::string skipped;  // why nothing ran (e.g. no case matches --dtype)
  std::vector<Found> failures;
  std::map<std::string, int> coverage;  // "axis: option" -> cases that matched it
  std::map<std::string, int> missed;    // targeted options no draw could match
  double CasesPerSecond() const { return seconds > 0 ? cases / seconds : 0; }
  nlohmann::ordered_json ToJson() const;
};

// Fuzzes one op under its campaign. Failures and progress go to `out`.
OpReport FuzzOp(const OpSpec& op, const Campaign& campaign, const Settings& s, std::ostream& out);

// Replays every saved case under `dir`. Returns the exit code: 0 every case
// passes now, 1 a failure reproduced, 2 a case could not be loaded or its
// bytes are not what this build generates for its identity.
int Replay(const std::string& dir, std::ostream& out);

}  // namespace vt::conform::fuzz
