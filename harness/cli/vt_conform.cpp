// vt-conform: the conformance gate. Runs the check modes over the catalog and
// writes results.json / report.md / report.html. Exit status 0 only when no
// case FAILED or was MISTRUSTED.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "harness/catalog/catalog.h"
#include "harness/cli/options.h"
#include "harness/runner/results_doc.h"
#include "harness/runner/runner.h"
#include "oracles/torch/reference.h"
#include "reports/report.h"
#include "vt/context.h"

namespace {

using namespace vt::conform;

[[noreturn]] void Die(const std::string& msg) {
  std::cerr << "vt-conform: " << cli::OneLine(msg) << "\n";
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
  // An op the torch mode does not cover says why (oracles/torch/list_*.inc).
  const std::string_view no_torch = vt::torchref::Unavailable();
  if (!no_torch.empty()) {
    std::cout << "torch: every op SKIPPED: " << no_torch << "\n";
  } else {
    for (const OpSpec& op : Catalog()) {
      if (vt::torchref::Find(op.name) != nullptr) continue;
      const std::string_view why = vt::torchref::WhyNone(op.name);
      std::cout << "torch: no reference for " << op.name << ": " << (why.empty() ? "not written yet" : why) << "\n";
    }
  }
  (void)cfg;
}

}  // namespace

int main(int argc, char** argv) {
  cli::Vocabulary voc;
  for (const OpSpec& op : Catalog()) voc.ops.push_back(op.name);
  for (const auto& m : AllModes()) voc.modes.emplace_back(m->name());
  voc.default_report_dir = std::string(VT_BINARY_DIR) + "/reports";
  cli::ConformOptions o;
  try {
    o = cli::ParseConformOptions(argc, argv, voc);
  } catch (const cli::UsageError& e) {
    Die(e.what());
  }
  if (o.help) {
    std::cout << o.help_text;
    return 0;
  }
  RunConfig cfg;
  cfg.tier = o.tier;
  cfg.seed = o.seed;
  cfg.threads = o.threads;
  cfg.isolate = !o.no_isolate;
  cfg.cuda_backend = o.backend == "cuda" ? vt::Backend::kCUDA : vt::Backend::kCudaEmu;
  cfg.golden_dirs = o.golden_dirs;
  for (const std::string& g : cfg.golden_dirs) {
    // Refused now: the golden mode would find out only while enumerating cases.
    if (!std::filesystem::is_directory(g)) Die("--golden: '" + g + "' is not a folder");
  }
  if (cfg.golden_dirs.empty()) {
    const std::string g = DefaultGoldens();
    if (!g.empty()) cfg.golden_dirs.push_back(g);
    // The project's own regenerated goldens (vt-golden regen) are in the repository.
    const std::filesystem::path data = std::filesystem::path(VT_SOURCE_DIR) / "golden" / "data";
    if (std::filesystem::is_directory(data)) cfg.golden_dirs.push_back(data.string());
  }
  if (o.list) {
    PrintList();
    return 0;
  }
  if (o.coverage) {
    PrintCoverage(cfg);
    return 0;
  }
  Selection sel;
  sel.case_id = o.case_id;
  sel.shard_index = o.shard_index;
  sel.shard_count = o.shard_count;
  if (o.ops.empty()) {
    for (const OpSpec& op : Catalog()) sel.ops.push_back(&op);
  } else {
    for (const auto& n : o.ops) sel.ops.push_back(FindOp(n));  // names checked by the parser
  }
  if (o.modes.empty()) {
    for (const auto& m : AllModes()) sel.modes.push_back(m.get());
  } else {
    for (const auto& n : o.modes) sel.modes.push_back(FindMode(n));
  }
  if (!sel.case_id.empty()) {
    // A malformed repro id is a usage error, refused before anything runs.
    try {
      const CaseRef ref = sel.modes[0]->Parse(*sel.ops[0], sel.case_id);
      if (ref.params.op != sel.ops[0]->name) {
        Die("--case: the id names op '" + ref.params.op + "', not --op " + sel.ops[0]->name);
      }
      // A knob of the wrong kind ("T=2.5" where the op draws integers) is
      // refused here, as a usage error, rather than failing - or running as
      // another case - later; building the specs catches the rest.
      if (!ref.params.args.empty()) {
        CheckKnobKinds(*sel.ops[0], ref.params);
        (void)BuildCase(*sel.ops[0], ref.params);
      }
    } catch (const std::exception& e) {
      Die(std::string("--case: ") + e.what());
    }
  }
  std::string command = "vt-conform";
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
  RunMeta meta;
  meta.command = command;
  meta.shard = std::to_string(sel.shard_index) + "/" + std::to_string(sel.shard_count);
  // The destination is checked, and the previous run's reports are replaced
  // by a "running" marker, before any case runs: a run that dies later can
  // neither lose its results to a bad path nor leave an earlier pass behind.
  try {
    cli::CheckWritableDir("--report", o.report_dir);
    vt::reports::StartReports(ResultsDocument(Summary{}, cfg, meta)["meta"], o.report_dir);
  } catch (const cli::UsageError& e) {
    Die(e.what());
  } catch (const std::exception& e) {
    Die(std::string("--report: ") + e.what());
  }
  char seed_hex[32];
  std::snprintf(seed_hex, sizeof seed_hex, "0x%llx", static_cast<unsigned long long>(cfg.seed));
  std::cerr << "vt-conform: tier " << Name(cfg.tier) << ", seed " << seed_hex << ", threads "
            << (cfg.threads > 0 ? cfg.threads : vt::DefaultThreads()) << ", " << sel.ops.size() << " ops, "
            << sel.modes.size() << " modes";
  if (!cfg.golden_dirs.empty()) std::cerr << ", goldens " << cfg.golden_dirs.front();
  std::cerr << "\n";
  if (sel.ops.empty()) std::cerr << "vt-conform: the catalog is empty: nothing to check\n";

  const Summary s = RunSelection(sel, cfg, std::cerr, !o.quiet);
  std::vector<std::string> paths;
  try {
    paths = vt::reports::WriteReports(ResultsDocument(s, cfg, meta), o.report_dir);
  } catch (const std::exception& e) {
    std::cout << s.FinalLine() << "\n";
    std::cerr << "vt-conform: " << cli::OneLine(e.what()) << "\n";
    return 2;
  }
  std::cout << "reports: " << paths[0] << " " << paths[1] << " " << paths[2] << "\n";
  int ran = 0;
  for (const auto& [outcome, n] : s.counts) {
    ran += (outcome == Outcome::kSkipped || outcome == Outcome::kUnsupported) ? 0 : n;
  }
  std::cout << s.FinalLine() << "\n";
  if (ran == 0 && !sel.ops.empty()) {
    std::cout << "vt-conform: no case ran: a run that checks nothing fails\n";
    return 1;
  }
  return s.failures() == 0 ? 0 : 1;
}
