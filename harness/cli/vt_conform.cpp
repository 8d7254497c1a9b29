// vt-conform: the conformance gate. Runs the check modes over the catalog and
// writes results.json / report.md / report.html. Exit status 0 only when no
// case FAILED or was MISTRUSTED.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "harness/catalog/catalog.h"
#include "harness/cli/conform_jobs.h"
#include "harness/cli/options.h"
#include "harness/runner/results_doc.h"
#include "harness/runner/runner.h"
#include "oracles/torch/reference.h"
#include "reports/atomic_file.h"
#include "reports/diff.h"
#include "reports/junit.h"
#include "reports/report.h"
#include "reports/summarize.h"
#include "vt/context.h"
#include "vt/isa.h"

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

// --baseline: an earlier finished results document, read before any case runs.
nlohmann::ordered_json LoadBaseline(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) Die("--baseline: '" + path + "' cannot be read");
  std::stringstream ss;
  ss << f.rdbuf();
  nlohmann::ordered_json d;
  try {
    d = nlohmann::ordered_json::parse(ss.str());
  } catch (const std::exception& e) {
    Die("--baseline: '" + path + "' is not JSON: " + e.what());
  }
  if (!d.is_object() || d.value("schema_version", 0) != vt::reports::kSchemaVersion || !d.contains("cases")) {
    Die("--baseline: '" + path + "' is not a results document of schema_version " +
        std::to_string(vt::reports::kSchemaVersion));
  }
  return d;
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

// The op x mode matrix, and each op's CPU tiers: portable (every op) and the
// vector tiers of vt::OpTiers, a tier this CPU cannot run in brackets.
void PrintCoverage(const RunConfig& cfg) {
  std::cout << "op                        ";
  for (const auto& m : AllModes()) std::cout << " " << m->name();
  std::cout << " tiers\n";
  for (const OpSpec& op : Catalog()) {
    std::string name = op.name;
    name.resize(26, ' ');
    std::cout << name;
    for (const auto& m : AllModes()) {
      std::string cell = m->Covers(op) ? "yes" : "-";
      cell.resize(m->name().size(), ' ');
      std::cout << " " << cell;
    }
    std::cout << " portable";
    for (vt::Isa t : vt::OpTiers(op.name)) {
      const std::string n(vt::Name(t));
      std::cout << "," << (vt::IsaSupported(t) ? n : "(" + n + ")");
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

// The arguments a --jobs job needs to run its shard of this run: everything
// that selects and configures cases; reports, baseline and JUnit are the
// parent's, after the merge.
std::vector<std::string> JobArgs(const cli::ConformOptions& o) {
  std::vector<std::string> a = {"--tier", std::string(Name(o.tier)), "--seed", std::to_string(o.seed)};
  auto list = [&](const char* flag, const std::vector<std::string>& names) {
    for (const std::string& n : names) a.insert(a.end(), {flag, n});
  };
  list("--op", o.ops);
  list("--mode", o.modes);
  list("--golden", o.golden_dirs);
  if (o.threads > 0) a.insert(a.end(), {"--threads", std::to_string(o.threads)});
  if (!o.isa.empty()) a.insert(a.end(), {"--isa", o.isa});
  a.insert(a.end(), {"--backend", o.backend});
  if (o.no_isolate) a.push_back("--no-isolate");
  return a;
}

// What the one-process run prints after its cases, for a document either
// path made; the exit status.
int Finish(nlohmann::ordered_json& doc, const cli::ConformOptions& o, const nlohmann::ordered_json& baseline,
           bool selected_ops) {
  const std::vector<std::string> lost = vt::reports::LostSignal(doc.value("cases", nlohmann::ordered_json::array()));
  if (!lost.empty()) {
    doc["summary"]["lost_signal"] = lost;
    doc["summary"]["final_line"] =
        doc["summary"].value("final_line", "") + "; " + std::to_string(lost.size()) + " op/mode lost the signal";
  }
  std::vector<std::string> paths;
  if (!baseline.is_null()) doc["baseline"] = vt::reports::DiffDocs(baseline, doc);
  try {
    paths = vt::reports::WriteReports(doc, o.report_dir);
    if (!o.junit.empty()) vt::reports::AtomicWriteFile(o.junit, vt::reports::JUnitXml(doc));
  } catch (const std::exception& e) {
    std::cout << doc["summary"].value("final_line", "") << "\n";
    std::cerr << "vt-conform: " << cli::OneLine(e.what()) << "\n";
    return 2;
  }
  std::cout << "reports: " << paths[0] << " " << paths[1] << " " << paths[2] << "\n";
  if (!o.junit.empty()) std::cout << "junit: " << o.junit << "\n";
  if (!baseline.is_null()) {
    const auto& d = doc["baseline"];
    std::cout << "baseline " << o.baseline << ": " << d["new_failures"].size() << " new failures, "
              << d["disappeared"].size() << " cases disappeared, " << d["fixed"].size() << " fixed (report.md)\n";
  }
  const auto& sum = doc["summary"];
  const int failures = sum.value("failed_incorrect", 0) + sum.value("failed_error", 0) + sum.value("mistrusted", 0);
  const int ran = sum.value("passed", 0) + failures;
  std::cout << sum.value("final_line", "") << "\n";
  for (const std::string& line : lost) std::cout << "LOST SIGNAL " << line << "\n";
  if (!lost.empty()) return 1;
  if (ran == 0 && selected_ops) {
    std::cout << "vt-conform: no case ran: a run that checks nothing fails\n";
    return 1;
  }
  return failures == 0 ? 0 : 1;
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
  try {
    cfg.isa = ApplyIsaFlag(o.isa);
  } catch (const std::exception& e) {
    Die(e.what());
  }
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
  meta.ops = o.ops;
  meta.modes = o.modes;
  meta.case_id = o.case_id;
  const nlohmann::ordered_json baseline = o.baseline.empty() ? nlohmann::ordered_json() : LoadBaseline(o.baseline);
  // The destination is checked, and the previous run's reports are replaced
  // by a "running" marker, before any case runs: a run that dies later can
  // neither lose its results to a bad path nor leave an earlier pass behind.
  try {
    cli::CheckWritableDir("--report", o.report_dir);
    if (!o.junit.empty()) cli::CheckWritableFile("--junit", o.junit);
    vt::reports::StartReports(ResultsDocument(Summary{}, cfg, meta)["meta"], o.report_dir);
  } catch (const cli::UsageError& e) {
    Die(e.what());
  } catch (const std::exception& e) {
    Die(std::string("--report: ") + e.what());
  }
  char seed_hex[32];
  std::snprintf(seed_hex, sizeof seed_hex, "0x%llx", static_cast<unsigned long long>(cfg.seed));
  std::cerr << "vt-conform: tier " << Name(cfg.tier) << ", seed " << seed_hex << ", threads "
            << (cfg.threads > 0 ? cfg.threads : vt::DefaultThreads()) << ", isa " << vt::Name(vt::DefaultIsa())
            << ", " << sel.ops.size() << " ops, "
            << sel.modes.size() << " modes";
  if (!cfg.golden_dirs.empty()) std::cerr << ", goldens " << cfg.golden_dirs.front();
  std::cerr << "\n";
  if (sel.ops.empty()) std::cerr << "vt-conform: the catalog is empty: nothing to check\n";

  if (o.jobs > 1) {
    cli::JobsPlan plan;
    plan.jobs = o.jobs;
    plan.args = JobArgs(o);
    plan.work_dir = (std::filesystem::path(o.report_dir) / "jobs").string();
    plan.progress = !o.quiet;
    const auto t0 = std::chrono::steady_clock::now();
    nlohmann::ordered_json doc;
    try {
      doc = cli::RunJobs(plan);
    } catch (const std::exception& e) {
      Die(e.what());
    }
    doc["meta"]["command"] = command;
    doc["meta"]["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return Finish(doc, o, baseline, !sel.ops.empty());
  }
  const Summary s = RunSelection(sel, cfg, std::cerr, !o.quiet);
  nlohmann::ordered_json doc = ResultsDocument(s, cfg, meta);
  return Finish(doc, o, baseline, !sel.ops.empty());
}
