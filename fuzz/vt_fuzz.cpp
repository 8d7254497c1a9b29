// vt-fuzz: time-boxed exploration of ops' case spaces (docs/fuzzing.md).
// Every case is drawn from the op's catalog generator (valid by construction,
// reproducible by `vt-conform --case`), steered by the op's campaign
// (fuzz/campaign.h) toward the edges, and checked by the chosen modes. Each
// failing case is shrunk through RapidCheck's shrink tree, printed with its
// repro line and saved in the golden layout; `--replay DIR` reruns saved
// cases bit for bit. Exit 0 nothing failed, 1 a failure found (or
// reproduced), 2 a usage or environment error.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>

#include "fuzz/campaign.h"
#include "fuzz/engine.h"
#include "harness/catalog/catalog.h"
#include "harness/cli/options.h"
#include "harness/fuzz/vocabulary.h"
#include "harness/runner/results_doc.h"
#include "harness/runner/runner.h"
#include "harness/upstream/upstream_check.h"
#include "reports/atomic_file.h"
#include "reports/report.h"
#include "reports/summarize.h"
#include "vt/isa.h"

#include <memory>
#include <unistd.h>

namespace {

using namespace vt::conform;

std::string Hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

std::string FormatSeconds(double v) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(v < 10 ? 1 : 0) << v << " s";
  return os.str();
}

std::string JoinNames(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::string JoinInts(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

// The modes of a campaign (or of --mode) that this op can be checked by.
std::vector<std::string> ModesFor(const OpSpec& op, const std::vector<std::string>& wanted) {
  std::vector<std::string> out;
  for (const std::string& n : wanted) {
    const Mode* m = FindMode(n);
    if (m == nullptr || !m->Covers(op)) continue;
    if (n == "equivalence" && op.claims.empty()) continue;
    out.push_back(n);
  }
  return out;
}

void List(std::ostream& out) {
  for (const OpSpec& op : Catalog()) {
    const fuzz::Campaign c = fuzz::CampaignFor(op);
    out << op.name << " (" << op.family << "): " << c.seconds << " s, tier " << Name(c.tier) << ", modes "
        << JoinNames(ModesFor(op, c.modes)) << ", threads " << JoinInts(c.threads) << ", values "
        << JoinNames(vocab::ValueKnobs(op.values)) << ", strided operands ["
        << JoinNames(vocab::StridedOperands(op.contract)) << "], " << op.errors.size() << " error cases\n";
    for (const fuzz::Axis& a : c.axes) {
      out << "    axis " << a.name << ":";
      for (const fuzz::AxisOption& o : a.options) out << " [" << o.name << "]";
      out << "\n";
    }
    if (!c.error_focus.empty()) out << "    error cases drawn half of the time: " << JoinNames(c.error_focus) << "\n";
    out << "    " << c.why << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  cli::Vocabulary voc;
  for (const OpSpec& op : Catalog()) voc.ops.push_back(op.name);
  for (const auto& m : AllModes()) voc.modes.emplace_back(m->name());
  voc.default_save_dir = std::string(VT_BINARY_DIR) + "/fuzz-failures";
  cli::FuzzOptions o;
  try {
    o = cli::ParseFuzzOptions(argc, argv, voc);
    if (o.help) {
      std::cout << o.help_text;
      return 0;
    }
    if (o.list) {
      List(std::cout);
      return 0;
    }
    // Checked now, not after an hour of fuzzing has found something to save.
    if (o.replay_dir.empty()) cli::CheckWritableDir("--save", o.save_dir);
    if (!o.json.empty()) cli::CheckWritableFile("--json", o.json);
  } catch (const cli::UsageError& e) {
    std::cerr << "vt-fuzz: " << cli::OneLine(e.what()) << "\n";
    return 2;
  }
  try {
    ApplyIsaFlag(o.isa);
  } catch (const std::exception& e) {
    std::cerr << "vt-fuzz: " << cli::OneLine(e.what()) << "\n";
    return 2;
  }
  if (!o.replay_dir.empty()) return fuzz::Replay(o.replay_dir, std::cout);

  // --upstream: the ops with a runner key; the worker started once for the run.
  std::unique_ptr<upstream::Worker> worker;
  std::unique_ptr<upstream::Checker> checker;
  std::string scratch;
  std::vector<std::string> unmapped;
  if (o.upstream) {
    bool need_triton = false;
    std::vector<std::string> kept;
    for (const OpSpec& op : Catalog()) {
      const bool wanted = o.all || std::find(o.ops.begin(), o.ops.end(), op.name) != o.ops.end();
      if (!wanted) continue;
      if (const UpstreamMap* m = upstream::MapOf(op)) {
        kept.push_back(op.name);
        need_triton = need_triton || upstream::NeedsTriton(m->runner_key);
      } else {
        unmapped.push_back(op.name);
      }
    }
    if (!o.all && !unmapped.empty()) {
      std::string mapped;
      for (const OpSpec& op : Catalog()) {
        if (upstream::MapOf(op) != nullptr) mapped += (mapped.empty() ? "" : ", ") + op.name;
      }
      std::cerr << "vt-fuzz: --upstream: no runner key maps " << JoinNames(unmapped) << " to upstream (mapped: "
                << mapped << ")\n";
      return 2;
    }
    const std::string missing = upstream::MissingEnvironment(need_triton);
    if (!missing.empty()) {
      std::cerr << "vt-fuzz: --upstream: " << missing << "\n";
      return 2;
    }
    scratch = (std::filesystem::temp_directory_path() / ("vt-fuzz-upstream-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(scratch);
    const std::string venv = upstream::RegenVenvDir();
    worker = std::make_unique<upstream::Worker>(venv + "/bin/python",
                                                std::string(VT_SOURCE_DIR) + "/golden/regen/vt_regen/worker.py",
                                                need_triton, o.save_dir + "/upstream-worker.log");
    const auto w0 = std::chrono::steady_clock::now();
    const std::string why = worker->Start(300);
    if (!why.empty()) {
      std::cerr << "vt-fuzz: --upstream: " << cli::OneLine(why) << "\n";
      std::filesystem::remove_all(scratch);
      return 2;
    }
    const double started = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    std::cout << "vt-fuzz: upstream worker ready in " << FormatSeconds(started) << " (vllm "
              << worker->hello().value("vllm", "?") << ", torch " << worker->hello().value("torch", "?")
              << (worker->hello().value("triton", false) ? ", triton" : "") << "; its stderr: " << o.save_dir
              << "/upstream-worker.log)" << std::endl;
    checker = std::make_unique<upstream::Checker>(*worker, scratch, o.upstream_timeout);
    o.ops = kept;
    o.all = false;
  }

  const uint64_t seed = o.seed_given ? o.seed : (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  std::cout << "vt-fuzz: seed " << Hex(seed) << " (rerun with --seed " << Hex(seed) << ")" << std::endl;
  std::vector<const OpSpec*> ops;
  if (o.all) {
    for (const OpSpec& op : Catalog()) ops.push_back(&op);
  } else {
    for (const std::string& n : o.ops) ops.push_back(FindOp(n));
  }
  std::cout << "vt-fuzz: isa " << vt::Name(vt::DefaultIsa()) << " (the tier every call runs; the isa mode checks the others)"
            << std::endl;
  nlohmann::ordered_json fuzz_ops = nlohmann::ordered_json::array();
  Summary found;  // the (unrepeated, shrunk) failures: the document's cases
  vt::reports::Tally tally;
  nlohmann::ordered_json matrix = nlohmann::ordered_json::object();
  int cases = 0, failed = 0, skipped = 0;
  std::vector<std::string> lost_signal;  // reports::LostSignalLine, per op and mode
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const OpSpec* op = ops[i];
    const fuzz::Campaign c = fuzz::CampaignFor(*op);
    fuzz::Settings s;
    s.seed = seed;
    s.tier = o.tier.empty() ? c.tier : *ParseTier(o.tier);
    s.max_cases = o.cases;
    if (o.seconds > 0) {
      // What is left of the time box, split over the ops still to run: an
      // op whose last case overran its share takes it from the others, so the
      // run ends near --time. Every op runs at least one case.
      const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      s.seconds = std::max(0.01, (o.seconds - spent) / static_cast<double>(ops.size() - i));
    } else {
      s.seconds = o.cases > 0 ? 0 : c.seconds;
    }
    s.threads = o.threads.empty() ? c.threads : o.threads;
    s.modes = ModesFor(*op, o.modes.empty() ? c.modes : o.modes);
    s.dtypes = o.dtypes;
    s.save_dir = o.save_dir;
    s.shard_index = o.shard_index;
    s.shard_count = o.shard_count;
    s.quiet = o.quiet;
    s.upstream = checker.get();
    if (o.upstream) s.modes = {"upstream"};
    std::cout << "== " << op->name << ": tier " << Name(s.tier) << ", modes " << JoinNames(s.modes)
              << ", oracle threads " << JoinInts(s.threads) << ", "
              << (s.seconds > 0 ? FormatSeconds(s.seconds) : std::string("no time limit"))
              << (s.max_cases > 0 ? ", at most " + std::to_string(s.max_cases) + " cases" : std::string()) << std::endl;
    if (s.modes.empty()) {
      std::cout << "   skipped: the op has none of the modes " << JoinNames(o.modes.empty() ? c.modes : o.modes) << "\n";
      continue;
    }
    const fuzz::OpReport r = fuzz::FuzzOp(*op, c, s, std::cout);
    cases += r.cases - r.skipped_cases;
    skipped += r.skipped_cases;
    failed += r.failed;
    std::cout << "   " << op->name << ": " << r.cases << " cases in " << std::fixed << std::setprecision(1)
              << r.seconds << " s (" << r.CasesPerSecond() << " cases/s), " << r.failed << " failed" << std::endl;
    std::cout.unsetf(std::ios::floatfield);
    if (!r.skipped.empty()) std::cout << "   skipped: " << r.skipped << "\n";
    if (r.skipped_cases > 0) {
      std::cout << "   " << r.skipped_cases << " cases SKIPPED (not counted as passed), the last: " << r.last_skip
                << "\n";
    }
    for (const auto& [mode, n] : r.judged) {
      if (n.first == 0) continue;
      std::cout << "   " << mode << ": " << n.first << " of " << n.second << " checks drew a case no reference can judge\n";
      // As vt-conform: a kernel and its oracle zeroed at once make every draw
      // "all zero" - each one skipped alone, together a failure of the run.
      const std::string line = vt::reports::LostSignalLine(op->name, mode, n.first, n.second);
      if (line.empty()) continue;
      std::cout << "LOST SIGNAL " << line << "\n   repro: vt-fuzz --op " << op->name << " --mode " << mode << " --seed "
                << Hex(seed) << " --cases " << r.cases << "\n";
      lost_signal.push_back(line);
    }
    if (!r.coverage.empty() && !o.quiet) {
      std::cout << "   coverage:";
      for (const auto& [k, n] : r.coverage) std::cout << " [" << k << "] " << n;
      std::cout << "\n";
    }
    for (const auto& [k, n] : r.missed) {
      // An option reached by other cases only missed some of its targeted draws.
      const auto hit = r.coverage.find(k);
      if (hit == r.coverage.end() || hit->second == 0) {
        std::cout << "   not reached: [" << k << "] (" << n << " targeted draws)\n";
      } else {
        std::cout << "   reached " << hit->second << " times, but " << n << " targeted draws missed: [" << k << "]\n";
      }
    }
    fuzz_ops.push_back(r.ToJson());
    // SKIPPED cases (upstream could not vouch for them) are not passes: the
    // document's summary says what the final line says.
    tally.status["PASSED"] += r.cases - r.failed - r.skipped_cases;
    tally.status["SKIPPED"] += r.skipped_cases;
    if (r.skipped_cases > 0) tally.skip_reasons["upstream cannot vouch for it (" + op->name + "; its line says why)"] += r.skipped_cases;
    for (const fuzz::Found& f : r.failures) {
      ++tally.status[std::string(Name(f.shrunk.status))];
      if (!f.repeat) found.results.push_back(f.shrunk);
    }
    matrix[op->name]["fuzz"] = {{"passed", r.cases - r.failed - r.skipped_cases}, {"failed", r.failed},
                                {"skipped", r.skipped_cases},
                                {"partial", 0}, {"max_headroom", 0.0}};
  }
  if (o.upstream) {
    std::cout << "upstream: " << checker->calls() << " calls, " << worker->restarts() << " worker restarts";
    if (!unmapped.empty()) std::cout << "; " << unmapped.size() << " ops without a runner key mapping not fuzzed";
    std::cout << "\n";
    std::filesystem::remove_all(scratch);
  }
  std::cout << cases - failed << " passed, " << failed << " failed";
  if (skipped > 0) std::cout << ", " << skipped << " skipped (upstream could not vouch: the ops' lines say why)";
  if (!lost_signal.empty()) std::cout << "; " << lost_signal.size() << " op/mode lost the signal";
  std::cout << std::endl;
  if (!o.json.empty()) {
    // The results document every tool writes (harness/runner/results_doc.h),
    // with the failures as its cases: a campaign's passing cases are counted
    // in the summary, not listed (a long run draws hundreds of thousands).
    RunConfig cfg;
    cfg.seed = seed;
    cfg.tier = o.tier.empty() ? Tier::kFull : *ParseTier(o.tier);
    RunMeta meta;
    meta.tool = "vt-fuzz";
    meta.command = "vt-fuzz";
    for (int k = 1; k < argc; ++k) meta.command += std::string(" ") + argv[k];
    meta.ops = o.ops;
    meta.modes = o.modes;
    meta.shard = std::to_string(o.shard_index) + "/" + std::to_string(o.shard_count);
    found.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    nlohmann::ordered_json doc = ResultsDocument(found, cfg, meta);
    doc["summary"] = vt::reports::SummaryJson(tally);
    if (!lost_signal.empty()) {
      doc["summary"]["lost_signal"] = lost_signal;
      doc["summary"]["final_line"] = doc["summary"].value("final_line", "") + "; " +
                                     std::to_string(lost_signal.size()) + " op/mode lost the signal";
    }
    doc["matrix"] = matrix;
    doc["cases_scope"] = "failures";
    if (o.tier.empty()) doc["meta"]["tier"] = "per-campaign";  // each op's campaign picks its tier
    doc["fuzz"] = {{"ops", fuzz_ops}};
    try {
      vt::reports::AtomicWriteFile(o.json, vt::reports::FinishedDocument(doc).dump(1) + "\n");
    } catch (const std::exception& e) {
      std::cerr << "vt-fuzz: --json: " << cli::OneLine(e.what()) << "\n";
      return 2;
    }
  }
  return failed > 0 || !lost_signal.empty() ? 1 : 0;
}
