// vt-fuzz: draws cases of one op from its RapidCheck generator (the same one
// every mode uses), checks each with the chosen modes (default: oracle and
// threads), and on the first failure shrinks it - RapidCheck's shrink tree,
// greedily taking the first smaller case that still fails - to a minimal case,
// prints its identity and repro line, and saves it as a replayable case folder
// (golden layout: SaveCase) under --save.
//   vt-fuzz --op mamba2_chunk_scan [--tier full] [--cases 500] [--seed N]
//           [--mode oracle,threads,equivalence] [--save DIR]
#include <filesystem>
#include <iostream>

#include "harness/catalog/catalog.h"
#include "harness/cli/options.h"
#include "harness/core/rng.h"
#include "harness/golden/golden_io.h"
#include "harness/runner/runner.h"
#include "reports/atomic_file.h"

namespace {

using namespace vt::conform;

// The first failing result of the modes on one case, or PASSED.
CaseResult CheckCase(const OpSpec& op, const std::vector<const Mode*>& modes, const Params& p,
                     const RunConfig& cfg) {
  for (const Mode* m : modes) {
    std::vector<CaseRef> refs;
    if (m->name() == "equivalence") {
      for (const Claim& c : op.claims) {
        if (!c.applies || c.applies(p)) refs.push_back({p.Identity() + "#" + c.name, p, c.name, ""});
      }
    } else {
      refs.push_back({p.Identity(), p, "", ""});
    }
    for (const CaseRef& ref : refs) {
      CaseResult r;
      try {
        r = m->Check(op, ref, cfg);
      } catch (const std::exception& e) {
        r = StartResult(op, m->name(), ref, cfg);
        r.status = Outcome::kFailedError;
        r.reason = std::string("harness error: ") + e.what();
      }
      if (IsFailure(r.status)) {
        r.repro = ReproCommand(r, cfg);
        return r;
      }
    }
  }
  CaseResult ok;
  ok.status = Outcome::kPassed;
  return ok;
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
    // Checked now, not after an hour of fuzzing has found something to save.
    cli::CheckWritableDir("--save", o.save_dir);
  } catch (const cli::UsageError& e) {
    std::cerr << "vt-fuzz: " << cli::OneLine(e.what()) << "\n";
    return 2;
  }
  RunConfig cfg;
  cfg.tier = o.tier;
  cfg.seed = o.seed;
  cfg.threads = o.threads;
  const int cases = o.cases;
  const std::vector<std::string>& mode_names = o.modes;
  const std::string& save_dir = o.save_dir;
  const OpSpec* op = FindOp(o.op);  // names checked by the parser
  std::vector<const Mode*> modes;
  for (const auto& n : mode_names) modes.push_back(FindMode(n));
  std::cerr << "vt-fuzz: " << op->name << ", tier " << Name(cfg.tier) << ", " << cases << " cases, seed 0x"
            << std::hex << cfg.seed << std::dec << "\n";
  const rc::Gen<Params> g = op->gen(cfg.tier);
  rc::Random random(cfg.seed ^ HashName(op->name) ^ 0xf022);
  for (int k = 0; k < cases; ++k) {
    rc::Shrinkable<Params> s = g(random.split(), rc::kNominalSize);
    CaseResult r = CheckCase(*op, modes, s.value(), cfg);
    if ((k + 1) % 50 == 0) std::cerr << "[" << k + 1 << "/" << cases << "] no failure yet\n";
    if (!IsFailure(r.status)) continue;
    std::cout << "FAILED " << r.id << "\n  " << r.reason << "\nshrinking...\n";
    // Greedy descent of the shrink tree: take the first shrink that still fails.
    int steps = 0;
    for (bool progress = true; progress && steps < 500;) {
      progress = false;
      auto shrinks = s.shrinks();
      while (auto candidate = shrinks.next()) {
        const CaseResult cr = CheckCase(*op, modes, candidate->value(), cfg);
        if (IsFailure(cr.status)) {
          s = *candidate;
          r = cr;
          progress = true;
          ++steps;
          break;
        }
      }
    }
    const Params minimal = s.value();
    std::cout << "minimal failing case after " << steps << " shrink steps:\n  " << r.id << "\n  " << r.reason
              << "\n" << r.detail << "  repro: " << r.repro << "\n";
    const std::string dir = save_dir + "/" + op->name + "-" + std::to_string(minimal.seed);
    try {
      // Written aside, then renamed: a killed run leaves no half-saved case.
      const std::string tmp = vt::reports::MakeTempDirNextTo(dir);
      SaveCase(MakeCase(*op, minimal), tmp);
      vt::reports::CommitTempDir(tmp, dir);
      std::cout << "saved the case (inputs as generated) to " << dir << "\n";
    } catch (const std::exception& e) {
      std::cerr << "vt-fuzz: could not save the case: " << cli::OneLine(e.what()) << "\n";
    }
    return 1;
  }
  std::cout << cases << " cases passed (" << op->name << ", modes";
  for (const auto& n : mode_names) std::cout << " " << n;
  std::cout << ")\n";
  return 0;
}
