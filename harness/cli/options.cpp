#include "harness/cli/options.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <CLI/CLI.hpp>

namespace vt::conform::cli {
namespace {

namespace fs = std::filesystem;

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

bool Contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// A CLI11 check: the value must satisfy `ok`, else `accepts` is the message
// (CLI11 prefixes the flag's name). The value itself is quoted through OneLine.
CLI::Validator Accepts(std::function<bool(const std::string&)> ok, std::string accepts) {
  return CLI::Validator(
      [ok = std::move(ok), accepts](std::string& s) -> std::string {
        return ok(s) ? std::string() : "'" + OneLine(s) + "' is not " + accepts;
      },
      "", "accepts");
}

CLI::Validator U64Check() {
  return Accepts([](const std::string& s) { uint64_t v; return ParseU64(s, v); },
                 "an unsigned 64-bit integer (decimal or 0x-hex)");
}

CLI::Validator IntCheck(int64_t lo, int64_t hi) {
  const std::string range = "an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
  return Accepts([lo, hi](const std::string& s) { int v; return ParseInt(s, lo, hi, v); }, range);
}

CLI::Validator NonEmpty(std::string what) {
  return Accepts([](const std::string& s) { return !s.empty() && OneLine(s) == s; }, std::move(what));
}

CLI::Validator IsaCheck() {
  return Accepts([](const std::string& s) { return Contains(IsaNames(), s); },
                 "a CPU tier (" + Join(IsaNames()) + ")");
}

constexpr const char* kIsaHelp =
    "CPU tier every kernel call runs: portable, avx2, avx512, auto (the best this CPU runs); sets VT_ISA for the "
    "run; the isa mode then checks only that vector tier (default VT_ISA, else auto)";

CLI::Validator TierCheck() {
  return Accepts([](const std::string& s) { return ParseTier(s).has_value(); }, "a tier (smoke, ci, full)");
}

// "a,b" -> {a, b}; every name must be in `known` (empty items, unknown names
// and repeats are refused: `--op ''` must not mean "every op").
std::vector<std::string> NameList(std::string_view flag, const std::vector<std::string>& raw,
                                  const std::vector<std::string>& known) {
  std::vector<std::string> out;
  for (const std::string& arg : raw) {
    std::size_t pos = 0;
    while (true) {
      const std::size_t comma = arg.find(',', pos);
      const std::string name = arg.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      if (name.empty()) {
        throw UsageError(std::string(flag) + ": empty name in '" + OneLine(arg) + "'; accepts a comma list of " +
                         Join(known));
      }
      if (!Contains(known, name)) {
        throw UsageError(std::string(flag) + ": unknown name '" + OneLine(name) + "'; accepts " + Join(known));
      }
      if (Contains(out, name)) throw UsageError(std::string(flag) + ": '" + name + "' named twice");
      out.push_back(name);
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }
  return out;
}

// Runs CLI11 and turns its exceptions into UsageError (or a help request).
// Returns false when help was asked for (help_text filled).
bool Run(CLI::App& app, int argc, const char* const* argv, std::string& help_text) {
  try {
    app.parse(argc, argv);
    return true;
  } catch (const CLI::CallForHelp&) {
  } catch (const CLI::CallForAllHelp&) {
  } catch (const CLI::ParseError& e) {
    throw UsageError(OneLine(e.what()) + " (see --help)");
  }
  // A subcommand's --help names that subcommand's flags; the top level's
  // lists every subcommand's flags too, so one --help shows them all.
  const std::vector<CLI::App*> chosen = app.get_subcommands();
  if (!chosen.empty()) {
    help_text = chosen.back()->help();
    return false;
  }
  help_text = app.help();
  const CLI::App& all = app;  // the const overload lists every defined subcommand
  for (const CLI::App* sub : all.get_subcommands(std::function<bool(const CLI::App*)>())) help_text += "\n" + sub->help();
  return false;
}

uint64_t U64(const std::string& s) {
  uint64_t v = 0;
  ParseU64(s, v);  // already checked by U64Check
  return v;
}

int Int(const std::string& s) {
  int v = 0;
  ParseInt(s, 0, INT32_MAX, v);  // already range-checked
  return v;
}

void Shard(const std::string& s, int& index, int& count) {
  const std::size_t slash = s.find('/');
  const bool shaped = slash != std::string::npos && s.find('/', slash + 1) == std::string::npos;
  if (!shaped || !ParseInt(s.substr(0, slash), 0, INT32_MAX, index) ||
      !ParseInt(s.substr(slash + 1), 1, INT32_MAX, count) || index >= count) {
    throw UsageError("--shard: '" + OneLine(s) + "' is not I/N with integers 0 <= I < N");
  }
}

constexpr const char* kSeedHelp = "master seed, decimal or 0x-hex (default 0x5eed2026); every case derives from it";
constexpr const char* kThreadsHelp = "threads per run, 1..64 (default VT_NUM_THREADS or all cores)";

}  // namespace

std::string OneLine(std::string_view s) {
  std::string o(s);
  for (char& c : o) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return o;
}

bool ParseU64(std::string_view s, uint64_t& out) {
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) return false;
  uint64_t v = 0;
  for (char c : s) {
    unsigned d;
    if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
    else return false;
    if (__builtin_mul_overflow(v, uint64_t{base}, &v) || __builtin_add_overflow(v, uint64_t{d}, &v)) return false;
  }
  out = v;
  return true;
}

bool ParseInt(std::string_view s, int64_t lo, int64_t hi, int& out) {
  if (s.empty() || s.size() > 12) return false;  // no int in range needs more; stops overflow early
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  if (v < lo || v > hi) return false;
  out = static_cast<int>(v);
  return true;
}

ConformOptions ParseConformOptions(int argc, const char* const* argv, const Vocabulary& voc) {
  ConformOptions o;
  o.report_dir = voc.default_report_dir;
  CLI::App app{"vt-conform: the conformance gate. Runs the check modes over the catalog and writes "
               "results.json / report.md / report.html; exit 0 only when nothing failed.",
               "vt-conform"};
  std::vector<std::string> ops, modes, goldens;
  std::string tier = "ci", seed, threads, shard, jobs;
  app.add_flag("--list", o.list, "ops in the catalog, with dtypes, error cases and claims (default off)");
  app.add_flag("--coverage", o.coverage, "op x mode matrix of what each op supports (default off)");
  app.add_option("--op", ops, "only these ops, repeatable (default all; see --list)")
      ->type_name("NAME[,NAME...]")
      ->check(NonEmpty("an op name"));
  app.add_option("--mode", modes, Join(voc.modes) + " (default all that apply)")
      ->type_name("NAME[,NAME...]")
      ->check(NonEmpty("a mode name"));
  app.add_option("--tier", tier, "case tier: smoke, ci, full (default ci)")->type_name("TIER")->check(TierCheck());
  app.add_option("--seed", seed, kSeedHelp)->type_name("U64")->check(U64Check());
  app.add_option("--threads", threads, kThreadsHelp)->type_name("N")->check(IntCheck(1, kMaxThreads));
  app.add_option("--case", o.case_id, "run exactly this case, the id of a repro line (default none)")
      ->type_name("ID")
      ->check(NonEmpty("a case id"));
  app.add_option("--golden", goldens, "golden folder for the golden mode, repeatable "
                                      "(default ../shared/goldens/vllm-upstream when present)")
      ->type_name("DIR")
      ->check(NonEmpty("a folder"));
  app.add_option("--report", o.report_dir, "where results.json / report.md / report.html go (default " +
                                               voc.default_report_dir + ")")
      ->type_name("DIR")
      ->check(NonEmpty("a folder"));
  app.add_option("--shard", shard, "run every N-th case starting at I, 0 <= I < N (default 0/1)")->type_name("I/N");
  app.add_option("--jobs", jobs, "processes the run is split over (each --shard i/N, merged into one report: the "
                                 "same cases and verdicts as one process) (default 1)")
      ->type_name("N")
      ->check(IntCheck(1, 64));
  app.add_flag("--no-isolate", o.no_isolate, "run negative cases in-process, no fork (default off)");
  app.add_flag("--quiet", o.quiet, "no progress lines (default off)");
  app.add_option("--isa", o.isa, kIsaHelp)->type_name("TIER")->check(IsaCheck());
  app.add_option("--backend", o.backend, "cuda mode: cuda-emu (the host emulation) or cuda (a device) (default cuda-emu)")
      ->type_name("NAME");
  // CI reports (reports/README.md).
  app.add_option("--junit", o.junit, "also write JUnit XML there, one testcase per case (default none)")
      ->type_name("FILE")
      ->check(NonEmpty("a file name"));
  app.add_option("--baseline", o.baseline, "an earlier results.json: report.md starts with what changed (default none)")
      ->type_name("FILE")
      ->check(NonEmpty("a file name"));
  if (!Run(app, argc, argv, o.help_text)) {
    o.help = true;
    return o;
  }
  if (o.backend != "cuda" && o.backend != "cuda-emu") {
    throw UsageError("--backend: expected cuda or cuda-emu, got '" + OneLine(o.backend) + "'");
  }
  o.ops = NameList("--op", ops, voc.ops);
  o.modes = NameList("--mode", modes, voc.modes);
  o.tier = *ParseTier(tier);
  if (!seed.empty()) o.seed = U64(seed);
  if (!threads.empty()) o.threads = Int(threads);
  if (!shard.empty()) Shard(shard, o.shard_index, o.shard_count);
  if (!jobs.empty()) o.jobs = Int(jobs);
  o.golden_dirs = goldens;
  if (!o.case_id.empty() && (o.ops.size() != 1 || o.modes.size() != 1)) {
    throw UsageError("--case: needs exactly one --op and one --mode");
  }
  if (o.jobs > 1 && !o.case_id.empty()) throw UsageError("--jobs: one --case runs in one process");
  if (o.jobs > 1 && o.shard_count > 1) throw UsageError("--jobs: splits the run into shards itself, not with --shard");
  return o;
}

GoldenOptions ParseGoldenOptions(int argc, const char* const* argv, const Vocabulary&) {
  GoldenOptions o;
  CLI::App app{"vt-golden: recorded upstream goldens against the kernels.", "vt-golden"};
  app.require_subcommand(1, 1);
  std::string threads;
  CLI::App* check = app.add_subcommand(
      "check", "check every case folder (with manifest.json) under DIR...; exit 0 only when nothing failed");
  check->add_option("DIR", o.dirs, "golden folders (at least one)")->type_name("DIR")->required()->check(NonEmpty("a folder"));
  check->add_option("--json", o.json, "also write the results document there (default none)")
      ->type_name("FILE")
      ->check(NonEmpty("a file name"));
  check->add_option("--threads", threads, kThreadsHelp)->type_name("N")->check(IntCheck(1, kMaxThreads));
  check->add_flag("--quiet", o.quiet, "only failures' details (default off)");
  CLI::App* lock = app.add_subcommand(
      "lock", "record the sha256 of every data file of every case under DIR... into --out FILE");
  lock->add_option("DIR", o.dirs, "golden folders (at least one)")->type_name("DIR")->required()->check(NonEmpty("a folder"));
  lock->add_option("--out", o.out, "the lock file to write (required)")
      ->type_name("FILE")
      ->required()
      ->check(NonEmpty("a file name"));
  // CLI11 would say only "A subcommand is required" for a misspelt one.
  if (argc >= 2 && argv[1] != nullptr && argv[1][0] != '-' && std::string_view(argv[1]) != "check" &&
      std::string_view(argv[1]) != "lock") {
    throw UsageError("unknown subcommand '" + OneLine(argv[1]) + "'; accepts check, lock, regen (see --help)");
  }
  if (!Run(app, argc, argv, o.help_text)) {
    o.help = true;
    return o;
  }
  o.command = check->parsed() ? "check" : "lock";
  if (!threads.empty()) o.threads = Int(threads);
  return o;
}

FuzzOptions ParseFuzzOptions(int argc, const char* const* argv, const Vocabulary& voc) {
  FuzzOptions o;
  o.save_dir = voc.default_save_dir;
  CLI::App app{"vt-fuzz: time-boxed exploration of ops' case spaces. Draws cases from each op's generator, "
               "biased by its campaign toward the edges, checks them, shrinks every failing case, saves it "
               "(golden layout) and prints its repro; exit 0 nothing failed, 1 a failure found, 2 usage or "
               "environment error.",
               "vt-fuzz"};
  std::string tier, cases, seed, time, shard;
  std::vector<std::string> ops, modes, threads, dtypes;
  app.add_flag("--list", o.list, "the ops and their default campaigns (default off)");
  app.add_flag("--all", o.all, "fuzz every op of the catalog (default off)");
  app.add_option("--op", ops, "the ops to fuzz, repeatable (see --list)")
      ->type_name("NAME[,NAME...]")
      ->check(NonEmpty("an op name"));
  app.add_option("--tier", tier, "generator tier: smoke, ci, full (default: the campaign's, full)")
      ->type_name("TIER")
      ->check(TierCheck());
  app.add_option("--cases", cases, "at most N cases per op, >= 1 (default no limit)")
      ->type_name("N")
      ->check(IntCheck(1, INT32_MAX));
  app.add_option("--time", time, "seconds for the whole run, split over the ops, 1..604800 (default: each "
                                  "op's campaign duration; with --cases alone, no limit)")
      ->type_name("SECONDS")
      ->check(IntCheck(1, 604800));
  app.add_option("--seed", seed, "master seed, decimal or 0x-hex (default: a fresh one, printed first)")
      ->type_name("U64")
      ->check(U64Check());
  app.add_option("--threads", threads, "thread counts the oracle runs draw from, 1..64 (default: the campaign's)")
      ->type_name("N[,N...]")
      ->check(NonEmpty("a thread count"));
  app.add_option("--mode", modes, "oracle, threads, isa, equivalence, negative, torch (default: the campaign's)")
      ->type_name("NAME[,NAME...]")
      ->check(NonEmpty("a mode name"));
  app.add_option("--dtype", dtypes, "only cases whose every dtype argument is one of these (default any)")
      ->type_name("DTYPE[,DTYPE...]")
      ->check(NonEmpty("a dtype name"));
  app.add_option("--save", o.save_dir, "where shrunk failing cases are saved (default " + voc.default_save_dir + ")")
      ->type_name("DIR")
      ->check(NonEmpty("a folder"));
  app.add_option("--replay", o.replay_dir, "rerun the saved case(s) under DIR bit for bit instead of fuzzing")
      ->type_name("DIR")
      ->check(NonEmpty("a folder"));
  app.add_option("--shard", shard, "run every N-th case of each op's stream starting at I (default 0/1)")
      ->type_name("I/N");
  app.add_option("--json", o.json, "also write the results document there (default none)")
      ->type_name("FILE")
      ->check(NonEmpty("a file name"));
  app.add_flag("--quiet", o.quiet, "no progress lines (default off)");
  app.add_option("--isa", o.isa, kIsaHelp)->type_name("TIER")->check(IsaCheck());
  std::string upstream_timeout;
  app.add_flag("--upstream", o.upstream,
               "hold each case to upstream vLLM's own code, run by a worker in the `vt-golden regen --setup` "
               "environment (ops with a runner key only; default off)");
  app.add_option("--upstream-timeout", upstream_timeout,
                 "with --upstream: seconds one case may take upstream before it is an ERROR, 1..3600 (default 120)")
      ->type_name("SECONDS")
      ->check(IntCheck(1, 3600));
  if (!Run(app, argc, argv, o.help_text)) {
    o.help = true;
    return o;
  }
  if (!upstream_timeout.empty()) {
    if (!o.upstream) throw UsageError("--upstream-timeout: goes with --upstream");
    o.upstream_timeout = Int(upstream_timeout);
  }
  if (o.upstream && !o.replay_dir.empty()) throw UsageError("--upstream: fuzzes; --replay reruns saved cases (no vLLM needed)");
  if (o.upstream && !modes.empty()) throw UsageError("--upstream: the case is held to upstream, not checked by --mode");
  o.ops = NameList("--op", ops, voc.ops);
  const int sources = (o.ops.empty() ? 0 : 1) + (o.all ? 1 : 0) + (o.replay_dir.empty() ? 0 : 1);
  if (!o.list && sources == 0) throw UsageError("--op: name the ops to fuzz (--op NAME or --all), or --replay DIR");
  if (sources > 1) throw UsageError("--op, --all and --replay exclude each other");
  o.tier = tier;
  if (!cases.empty()) o.cases = Int(cases);
  if (!time.empty()) o.seconds = Int(time);
  if (!seed.empty()) {
    o.seed = U64(seed);
    o.seed_given = true;
  }
  for (const std::string& t : NameList("--threads", threads, [] {
         std::vector<std::string> v;
         for (int i = 1; i <= kMaxThreads; ++i) v.push_back(std::to_string(i));
         return v;
       }())) {
    o.threads.push_back(Int(t));
  }
  if (!modes.empty()) {
    // Golden cases are recorded, not drawn from the generator: not fuzzable.
    std::vector<std::string> fuzzable;
    for (const char* m : {"oracle", "threads", "isa", "equivalence", "negative", "torch"}) {
      if (Contains(voc.modes, m)) fuzzable.push_back(m);
    }
    o.modes = NameList("--mode", modes, fuzzable);
  }
  if (!dtypes.empty()) {
    o.dtypes = NameList("--dtype", dtypes, {"f32", "f16", "bf16", "i8", "u8", "i32", "i64"});
  }
  if (!shard.empty()) Shard(shard, o.shard_index, o.shard_count);
  return o;
}

void CheckWritableDir(std::string_view flag, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    throw UsageError(std::string(flag) + ": cannot create the folder '" + OneLine(dir) + "'" +
                     (ec ? ": " + ec.message() : std::string()));
  }
  // access() answers for this process's ids; a probe file would leave litter
  // behind if the run were killed between create and remove.
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw UsageError(std::string(flag) + ": the folder '" + OneLine(dir) + "' is not writable: " +
                     std::strerror(errno));
  }
}

void CheckWritableFile(std::string_view flag, const std::string& file) {
  const fs::path p(file);
  if (fs::is_directory(p)) throw UsageError(std::string(flag) + ": '" + OneLine(file) + "' is a folder, not a file");
  const fs::path parent = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  CheckWritableDir(flag, parent.string());
}

}  // namespace vt::conform::cli
