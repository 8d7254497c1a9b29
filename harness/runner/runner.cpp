#include "harness/runner/runner.h"

#include "harness/core/compare.h"
#include "harness/core/crash_note.h"

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <chrono>
#include <cmath>
#include <iostream>
#include <sstream>

namespace vt::conform {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct Item {
  const OpSpec* op;
  const Mode* mode;
  CaseRef ref;
  std::string enumerate_error;  // the mode could not list its cases: one FAILED case
};

// A mode that throws while listing its cases (a golden folder that breaks
// while being read) is one FAILED_ERROR case, never an abort of the run.
std::vector<Item> ItemsOf(const OpSpec& op, const Mode& mode, const RunConfig& cfg) {
  std::vector<Item> items;
  try {
    for (CaseRef& ref : mode.Enumerate(op, cfg)) items.push_back({&op, &mode, std::move(ref), ""});
  } catch (const std::exception& e) {
    CaseRef ref;
    ref.id = op.name + "!" + std::string(mode.name()) + "_cases";
    ref.params = Params(op.name);
    items.push_back({&op, &mode, ref, std::string("listing the cases failed: ") + e.what()});
  }
  return items;
}

CaseResult CheckOne(const Item& it, const RunConfig& cfg) {
  const auto t0 = Clock::now();
  CaseResult r = StartResult(*it.op, it.mode->name(), it.ref, cfg);
  NoteRunningCase(r, cfg);
  try {
    if (!it.enumerate_error.empty()) throw std::runtime_error(it.enumerate_error);
    r = it.mode->Check(*it.op, it.ref, cfg);
  } catch (const std::exception& e) {
    r = StartResult(*it.op, it.mode->name(), it.ref, cfg);
    r.status = Outcome::kFailedError;
    r.reason = std::string("harness error: ") + e.what();
  }
  if (r.status == Outcome::kMistrusted && UnjudgeableDraw(r.reason)) {
    // The draw's fault, not the kernel's nor the tolerance's (as vt-fuzz
    // counts it); an op and mode where it is common fails the run instead
    // (reports::LostSignal, applied by vt-conform).
    r.status = Outcome::kSkipped;
    r.reason = std::string(kUnjudgeablePrefix) + r.reason;
  }
  r.seconds = Since(t0);
  r.repro = ReproCommand(r, cfg);
  return r;
}

}  // namespace

int Summary::failures() const {
  int n = 0;
  for (const auto& [o, c] : counts) {
    if (IsFailure(o)) n += c;
  }
  return n;
}

std::string Summary::FinalLine() const {
  auto get = [&](Outcome o) {
    auto it = counts.find(o);
    return it == counts.end() ? 0 : it->second;
  };
  std::ostringstream os;
  os << get(Outcome::kPassed) << " passed, "
     << get(Outcome::kFailedIncorrect) + get(Outcome::kFailedError) << " failed";
  if (get(Outcome::kMistrusted) > 0) os << ", " << get(Outcome::kMistrusted) << " mistrusted";
  os << ", " << get(Outcome::kSkipped) << " skipped";
  if (get(Outcome::kUnsupported) > 0) os << ", " << get(Outcome::kUnsupported) << " unsupported";
  if (!skip_reasons.empty()) {
    os << " (";
    bool first = true;
    for (const auto& [reason, n] : skip_reasons) {
      os << (first ? "" : "; ") << n << "x " << reason;
      first = false;
    }
    os << ")";
  }
  // Counted, never hidden: passes that could not judge every element.
  if (partial_passes > 0) os << "; " << partial_passes << " of the passes partial (elements not judged: see the reports)";
  return os.str();
}

std::string ReproCommand(const CaseResult& r, const RunConfig& cfg) {
  std::string cmd = "vt-conform --op " + r.op + " --mode " + r.mode + " --tier " +
                    std::string(Name(cfg.tier)) + " --case " + Quote(r.id);
  if (cfg.threads > 0) cmd += " --threads " + std::to_string(cfg.threads);
  if (r.mode == "cuda") cmd += " --backend " + std::string(vt::Name(cfg.cuda_backend));
  if (!r.isa.empty()) {
    cmd += " --isa " + r.isa;
  } else if (cfg.isa != vt::Isa::kAuto) {
    cmd += " --isa " + std::string(vt::Name(cfg.isa));
  }
  for (const auto& d : cfg.golden_dirs) cmd += " --golden " + Quote(d);
  return cmd;
}

namespace {
vt::Isa g_flag_isa = vt::Isa::kAuto;  // set once, by the CLI's main, before any case runs
}  // namespace

vt::Isa FlagIsa() { return g_flag_isa; }

vt::Isa ApplyIsaFlag(const std::string& name) {
  if (name.empty()) return vt::Isa::kAuto;
  const std::optional<vt::Isa> isa = vt::ParseIsa(name);
  if (!isa) throw std::runtime_error("--isa: unknown tier '" + name + "'");
  if (!vt::IsaSupported(*isa)) throw std::runtime_error("--isa: this CPU does not run the " + name + " tier");
  ::setenv("VT_ISA", name.c_str(), 1);
  g_flag_isa = *isa;
  return *isa;
}

void NoteRunningCase(const CaseResult& started, const RunConfig& cfg) {
  ArmCrashNote();
  SetCrashNote("CRASHED " + started.op + "/" + started.mode + " " + started.id + "\n  repro: " +
               ReproCommand(started, cfg) + "\n");
}

std::vector<CaseResult> RunOpMode(const OpSpec& op, const Mode& mode, const RunConfig& cfg) {
  std::vector<CaseResult> out;
  for (const Item& it : ItemsOf(op, mode, cfg)) out.push_back(CheckOne(it, cfg));
  return out;
}

Summary RunSelection(const Selection& sel, const RunConfig& cfg, std::ostream& log, bool progress) {
  const auto t0 = Clock::now();
  std::vector<Item> items;
  for (const OpSpec* op : sel.ops) {
    for (const Mode* mode : sel.modes) {
      if (!sel.case_id.empty()) {
        items.push_back({op, mode, mode->Parse(*op, sel.case_id), ""});
        continue;
      }
      if (!mode->Covers(*op)) continue;
      for (Item& it : ItemsOf(*op, *mode, cfg)) items.push_back(std::move(it));
    }
  }
  Summary s;
  std::size_t mine = 0;
  for (std::size_t i = 0; i < items.size(); ++i) mine += static_cast<int>(i % static_cast<std::size_t>(sel.shard_count)) == sel.shard_index;
  std::size_t done = 0;
  auto last_print = Clock::now();
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (static_cast<int>(i % static_cast<std::size_t>(sel.shard_count)) != sel.shard_index) continue;
    const Item& it = items[i];
    CaseResult r = CheckOne(it, cfg);
    ++done;
    ++s.counts[r.status];
    if (r.status == Outcome::kPassed && r.unjudged > 0) ++s.partial_passes;
    if (r.status == Outcome::kSkipped || r.status == Outcome::kUnsupported) ++s.skip_reasons[reports::SkipGroup(r.reason)];
    if (IsFailure(r.status)) {
      log << Name(r.status) << " " << r.op << "/" << r.mode << " " << r.id << "\n  " << r.reason << "\n";
      if (!r.detail.empty()) log << r.detail;
      log << "  repro: " << r.repro << "\n";
    }
    const bool last_of_pair = i + 1 == items.size() || items[i + 1].op != it.op || items[i + 1].mode != it.mode;
    if (progress && (last_of_pair || Since(last_print) > 2.0)) {
      log << "[" << done << "/" << mine << "] " << it.op->name << " " << it.mode->name()
          << (last_of_pair ? " done" : "") << ", " << s.failures() << " failed so far, "
          << static_cast<int>(Since(t0)) << "s\n";
      last_print = Clock::now();
    }
    s.results.push_back(std::move(r));
  }
  s.seconds = Since(t0);
  return s;
}

}  // namespace vt::conform
