// vt-conform: the conformance gate. Runs the check modes over the catalog and
// writes results.json / report.md / report.html. Exit status 0 only when no
// case FAILED or was MISTRUSTED.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "harness/catalog/catalog.h"
#include "harness/runner/results_doc.h"
#include "harness/runner/runner.h"
#include "reports/report.h"
#include "vt/context.h"

namespace {

using namespace vt::conform;

constexpr const char* kUsage = R"(usage: vt-conform [options]
  --list                 ops in the catalog, with dtypes, error cases and claims
  --coverage             op x mode matrix of what each op supports
  --op NAME[,NAME...]    only these ops (default: all)
  --mode NAME[,NAME...]  oracle, threads, equivalence, negative, golden (default: all that apply)
  --tier smoke|ci|full   case tier (default ci)
  --seed N               master seed (default 0x5eed2026); every case derives from it
  --threads N            threads for oracle/equivalence runs (default: VT_NUM_THREADS or all cores)
  --case ID              run exactly this case (the id printed in a repro line)
  --golden DIR           golden folder(s) for the golden mode (repeatable; default:
                         ../shared/goldens/vllm-upstream next to the source tree, when present)
  --report DIR           where results.json / report.md / report.html go (default <build>/reports)
  --shard I/N            run every N-th case starting at I (0-based)
  --no-isolate           run negative cases in-process (no fork)
  --quiet                no progress lines
)";

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

[[noreturn]] void Die(const std::string& msg) {
  std::cerr << "vt-conform: " << msg << "\n" << kUsage;
  std::exit(2);
}

std::string DefaultGoldens() {
  const std::filesystem::path p = std::filesystem::path(VT_SOURCE_DIR) / ".." / "shared" / "goldens" / "vllm-upstream";
  return std::filesystem::is_directory(p) ? std::filesystem::weakly_canonical(p).string() : "";
}

void PrintList() {
  for (const OpSpec& op : Catalog()) {
    std::cout << op.family << "/" << op.name << "  " << op.dtypes << "\n    " << op.errors.size()
              << " error cases; claims:";
    for (const Claim& c : op.claims) std::cout << " " << c.name;
    std::cout << "\n";
  }
  std::cout << "modes:";
  for (const auto& m : AllModes()) std::cout << " " << m->name();
  std::cout << "\n";
}

void PrintCoverage(const RunConfig& cfg) {
  std::cout << "op                        ";
  for (const auto& m : AllModes()) std::cout << " " << m->name();
  std::cout << "\n";
  for (const OpSpec& op : Catalog()) {
    std::string name = op.name;
    name.resize(26, ' ');
    std::cout << name;
    for (const auto& m : AllModes()) {
      std::string cell = m->Covers(op) ? "yes" : "-";
      cell.resize(m->name().size(), ' ');
      std::cout << " " << cell;
    }
    std::cout << "\n";
  }
  (void)cfg;
}

}  // namespace

int main(int argc, char** argv) {
  RunConfig cfg;
  Selection sel;
  std::vector<std::string> op_names, mode_names;
  std::string report_dir = std::string(VT_BINARY_DIR) + "/reports";
  bool list = false, coverage = false, progress = true, golden_given = false;
  std::string command = "vt-conform";
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) Die(a + " needs a value");
      return argv[++i];
    };
    if (a == "--list") {
      list = true;
    } else if (a == "--coverage") {
      coverage = true;
    } else if (a == "--op") {
      for (auto& s : SplitList(next())) op_names.push_back(s);
    } else if (a == "--mode") {
      for (auto& s : SplitList(next())) mode_names.push_back(s);
    } else if (a == "--tier") {
      const auto t = ParseTier(next());
      if (!t) Die("unknown tier");
      cfg.tier = *t;
    } else if (a == "--seed") {
      cfg.seed = std::stoull(next(), nullptr, 0);
    } else if (a == "--threads") {
      cfg.threads = std::stoi(next());
    } else if (a == "--case") {
      sel.case_id = next();
    } else if (a == "--golden") {
      cfg.golden_dirs.push_back(next());
      golden_given = true;
    } else if (a == "--report") {
      report_dir = next();
    } else if (a == "--shard") {
      const std::string s = next();
      const auto slash = s.find('/');
      if (slash == std::string::npos) Die("--shard wants I/N");
      sel.shard_index = std::stoi(s.substr(0, slash));
      sel.shard_count = std::stoi(s.substr(slash + 1));
      if (sel.shard_count < 1 || sel.shard_index < 0 || sel.shard_index >= sel.shard_count) Die("bad --shard");
    } else if (a == "--no-isolate") {
      cfg.isolate = false;
    } else if (a == "--quiet") {
      progress = false;
    } else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else {
      Die("unknown option " + a);
    }
  }
  if (!golden_given) {
    const std::string g = DefaultGoldens();
    if (!g.empty()) cfg.golden_dirs.push_back(g);
  }
  if (list) {
    PrintList();
    return 0;
  }
  if (coverage) {
    PrintCoverage(cfg);
    return 0;
  }
  if (op_names.empty()) {
    for (const OpSpec& op : Catalog()) sel.ops.push_back(&op);
  } else {
    for (const auto& n : op_names) {
      const OpSpec* op = FindOp(n);
      if (op == nullptr) Die("unknown op '" + n + "' (see --list)");
      sel.ops.push_back(op);
    }
  }
  if (mode_names.empty()) {
    for (const auto& m : AllModes()) sel.modes.push_back(m.get());
  } else {
    for (const auto& n : mode_names) {
      const Mode* m = FindMode(n);
      if (m == nullptr) Die("unknown mode '" + n + "'");
      sel.modes.push_back(m);
    }
  }
  if (!sel.case_id.empty() && (sel.ops.size() != 1 || sel.modes.size() != 1)) {
    Die("--case needs exactly one --op and one --mode");
  }
  char seed_hex[32];
  std::snprintf(seed_hex, sizeof seed_hex, "0x%llx", static_cast<unsigned long long>(cfg.seed));
  std::cerr << "vt-conform: tier " << Name(cfg.tier) << ", seed " << seed_hex << ", threads "
            << (cfg.threads > 0 ? cfg.threads : vt::DefaultThreads()) << ", " << sel.ops.size() << " ops, "
            << sel.modes.size() << " modes";
  if (!cfg.golden_dirs.empty()) std::cerr << ", goldens " << cfg.golden_dirs.front();
  std::cerr << "\n";
  if (sel.ops.empty()) std::cerr << "vt-conform: the catalog is empty: nothing to check\n";

  const Summary s = RunSelection(sel, cfg, std::cerr, progress);
  RunMeta meta;
  meta.command = command;
  meta.shard = std::to_string(sel.shard_index) + "/" + std::to_string(sel.shard_count);
  const auto paths = vt::reports::WriteReports(ResultsDocument(s, cfg, meta), report_dir);
  std::cout << "reports: " << paths[0] << " " << paths[1] << " " << paths[2] << "\n";
  int ran = 0;
  for (const auto& [o, n] : s.counts) ran += (o == Outcome::kSkipped || o == Outcome::kUnsupported) ? 0 : n;
  std::cout << s.FinalLine() << "\n";
  if (ran == 0 && !sel.ops.empty()) {
    std::cout << "vt-conform: no case ran: a run that checks nothing fails\n";
    return 1;
  }
  return s.failures() == 0 ? 0 : 1;
}
