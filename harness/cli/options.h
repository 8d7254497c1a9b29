// Command lines of vt-conform, vt-golden and vt-fuzz, parsed by CLI11 into
// typed, range-checked options. The parse functions are pure: they read argv
// and the vocabulary, touch no file and never exit, so unit tests and the
// libFuzzer target (fuzz/libfuzzer/cli_args_fuzz.cpp) call them directly. Any
// bad command line throws UsageError with ONE line that names the flag and
// what it accepts; the CLIs print it and exit 2.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/tier.h"

namespace vt::conform::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What the names on a command line may be. Passed in (not read from the
// catalog) so this library needs nothing but CLI11; the CLIs fill it from the
// catalog, the fuzz target from vt/ops.def.
struct Vocabulary {
  std::vector<std::string> ops;
  std::vector<std::string> modes;
  std::string default_report_dir;  // vt-conform --report default
  std::string default_save_dir;    // vt-fuzz --save default
};

inline constexpr uint64_t kDefaultSeedValue = 0x5eed2026;  // = RunConfig's kDefaultSeed
inline constexpr int kMaxThreads = 64;                     // the pool's own cap

struct ConformOptions {
  bool help = false;  // --help: print help_text, exit 0
  std::string help_text;
  bool list = false, coverage = false, quiet = false, no_isolate = false;
  std::vector<std::string> ops, modes;  // empty = all
  Tier tier = Tier::kCi;
  uint64_t seed = kDefaultSeedValue;
  int threads = 0;  // 0 = VT_NUM_THREADS or all cores
  std::string case_id;
  std::vector<std::string> golden_dirs;  // empty = the default captures
  std::string report_dir;
  int shard_index = 0, shard_count = 1;
  int jobs = 1;  // --jobs: processes the run is split over (harness/cli/conform_jobs.h)
  std::string backend = "cuda-emu";  // cuda mode: cuda-emu or cuda
  // Reports for CI (reports/README.md): JUnit XML, and an earlier results.json
  // whose differences head report.md.
  std::string junit, baseline;
  std::string isa;  // --isa: portable, avx2, avx512 or auto; empty: not given (VT_ISA or the best tier)
};

struct GoldenOptions {
  bool help = false;
  std::string help_text;
  std::string command;  // "check" or "lock"
  std::vector<std::string> dirs;
  std::string json;  // check: optional results document
  std::string out;   // lock: the lock file
  int threads = 0;
  bool quiet = false;
};

struct FuzzOptions {
  bool help = false;
  std::string help_text;
  bool list = false;   // --list: the ops and their default campaigns
  bool all = false;    // --all: every op of the catalog
  bool quiet = false;  // --quiet: no progress lines
  std::vector<std::string> ops;  // --op, repeatable
  std::string tier;              // --tier; empty: each campaign's own
  int cases = 0;                 // --cases per op; 0: no case limit
  double seconds = 0;            // --time for the whole run; 0: the campaigns' defaults
  uint64_t seed = kDefaultSeedValue;
  bool seed_given = false;       // no --seed: a fresh seed, printed first
  std::vector<int> threads;      // --threads LIST; empty: the campaigns' defaults
  std::vector<std::string> modes;   // empty: the campaigns' defaults
  std::vector<std::string> dtypes;  // --dtype LIST: only cases whose dtypes are all in it
  std::string save_dir;
  std::string replay_dir;        // --replay DIR: rerun saved cases instead of fuzzing
  int shard_index = 0, shard_count = 1;
  std::string json;              // --json FILE: the run's results document
  std::string isa;               // --isa, as vt-conform's
  bool upstream = false;         // --upstream: hold each case to upstream vLLM (docs/fuzzing.md)
  int upstream_timeout = 120;    // --upstream-timeout: seconds one case may take upstream
};

ConformOptions ParseConformOptions(int argc, const char* const* argv, const Vocabulary& v);
GoldenOptions ParseGoldenOptions(int argc, const char* const* argv, const Vocabulary& v);
FuzzOptions ParseFuzzOptions(int argc, const char* const* argv, const Vocabulary& v);

// Strict number parsers (exposed for tests). Seeds: decimal or 0x-hex, no sign,
// no spaces, no trailing junk, overflow refused. Integers: decimal only.
// Each returns false instead of guessing.
bool ParseU64(std::string_view s, uint64_t& out);
bool ParseInt(std::string_view s, int64_t lo, int64_t hi, int& out);

// The --isa vocabulary (vt::Name of each vt::Isa).
inline const std::vector<std::string>& IsaNames() {
  static const std::vector<std::string> kNames = {"portable", "avx2", "avx512", "auto"};
  return kNames;
}

// Side effects kept out of the parse functions: before any case runs, make
// sure an output folder (created if needed) or an output file's folder can be
// written. Throws UsageError naming the flag and the path.
void CheckWritableDir(std::string_view flag, const std::string& dir);
void CheckWritableFile(std::string_view flag, const std::string& file);

// One line for the terminal: control characters shown as '?', so a hostile
// argument cannot make a message span lines.
std::string OneLine(std::string_view s);

}  // namespace vt::conform::cli
