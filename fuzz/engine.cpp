#include "fuzz/engine.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>

#include "harness/catalog/catalog.h"
#include "harness/core/compare.h"
#include "harness/core/rng.h"
#include "harness/fuzz/vocabulary.h"
#include "harness/golden/golden_io.h"
#include "harness/modes/golden_check.h"
#include "harness/runner/runner.h"
#include "reports/atomic_file.h"

namespace vt::conform::fuzz {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// What one case is checked with besides its Params: the oracle run's thread
// count, and the negative mode's error case (chosen on first use, then kept
// while shrinking, so a shrunk case fails the same way).
struct Probe {
  int threads = 0;
  uint64_t error_pick = 0;
  std::string error;
  const std::vector<const ErrorCase*>* focus = nullptr;  // the campaign's error_focus, if any
};

bool DTypesAllowed(const Params& p, const std::vector<std::string>& dtypes) {
  if (dtypes.empty()) return true;
  for (const auto& [key, v] : p.args.items()) {
    if (!v.is_string() || !vt::ParseDType(v.get<std::string>())) continue;
    if (std::find(dtypes.begin(), dtypes.end(), v.get<std::string>()) == dtypes.end()) return false;
  }
  return true;
}

CaseResult Guarded(const Mode& m, const OpSpec& op, const CaseRef& ref, const RunConfig& cfg) {
  CaseResult r = StartResult(op, m.name(), ref, cfg);
  NoteRunningCase(r, cfg);
  try {
    r = m.Check(op, ref, cfg);
  } catch (const std::exception& e) {
    r = StartResult(op, m.name(), ref, cfg);
    r.status = Outcome::kFailedError;
    r.reason = std::string("harness error: ") + e.what();
  }
  if (r.status == Outcome::kMistrusted && UnjudgeableDraw(r.reason)) {
    // The draw's fault, not the kernel's nor the tolerance's (the run, the
    // shrinking and --replay all see it so).
    r.status = Outcome::kSkipped;
    r.reason = kUnjudgeablePrefix + r.reason;
  }
  r.repro = ReproCommand(r, cfg);
  return r;
}

// Whether a SKIPPED result is a draw no reference can judge (Guarded's, or
// the upstream checker's own wording of it).
bool UnjudgeableSkip(const CaseResult& r) {
  return r.status == Outcome::kSkipped && (r.reason.rfind(kUnjudgeablePrefix, 0) == 0 ||
                                           r.reason.rfind(upstream::kUnjudgeableByUpstream, 0) == 0);
}

using JudgedTally = std::map<std::string, std::pair<int, int>>;
void Count(JudgedTally* judged, const CaseResult& r) {
  if (judged == nullptr) return;
  auto& n = (*judged)[r.mode];
  ++n.second;
  if (UnjudgeableSkip(r)) ++n.first;
}

// The first failing result of the modes on one case, else a PASSED one
// (SKIPPED when no mode could check anything).
// `claim`: equivalence checks only that claim (shrinking keeps the claim that failed).
// `judged`: counts each check per mode (the drawn cases; null while shrinking).
CaseResult CheckCase(const OpSpec& op, const std::vector<const Mode*>& modes, const Params& p, Probe& probe,
                     Tier tier, const std::string& claim = "", upstream::Checker* up = nullptr,
                     JudgedTally* judged = nullptr) {
  RunConfig cfg;
  cfg.tier = tier;
  cfg.threads = probe.threads;
  cfg.isa = FlagIsa();
  if (up != nullptr) {
    CaseResult r = up->Check(op, p, cfg);
    Count(judged, r);
    return r;
  }
  CaseResult last;
  last.status = Outcome::kSkipped;
  for (const Mode* m : modes) {
    std::vector<CaseRef> refs;
    if (m->name() == "equivalence") {
      // Claims state their own preconditions over the entry's knobs (e.g.
      // "pad == 0" before viewing a tensor as another shape); fuzz_stride
      // pads behind their back, so claims are checked on unpadded cases only.
      if (p.Has(vocab::kStrideKnob) && p.Int(vocab::kStrideKnob) > 0) continue;
      for (const Claim& c : op.claims) {
        if (!claim.empty() && c.name != claim) continue;
        if (!c.applies || c.applies(p)) refs.push_back({p.Identity() + "#" + c.name, p, c.name, ""});
      }
    } else if (m->name() == "negative") {
      // One error case per drawn case; one that does not apply to this case
      // (no residual to corrupt, ...) hands over to the next, a few times.
      const bool focused = probe.focus != nullptr && !probe.focus->empty() && (probe.error_pick & 1) != 0;
      for (int k = 0; k < 6 && probe.error.empty(); ++k) {
        const uint64_t pick = (probe.error_pick >> 1) + static_cast<uint64_t>(k);
        const ErrorCase* ec = focused ? (*probe.focus)[pick % probe.focus->size()] : vocab::PickErrorCase(op, pick);
        if (ec == nullptr) break;
        Case c = BuildCase(op, p);
        if (ec->mutate(c)) probe.error = ec->name;
      }
      if (!probe.error.empty()) refs.push_back({p.Identity() + "!" + probe.error, p, probe.error, ""});
    } else {
      refs.push_back({p.Identity(), p, "", ""});
    }
    for (const CaseRef& ref : refs) {
      CaseResult r = Guarded(*m, op, ref, cfg);
      Count(judged, r);
      if (IsFailure(r.status)) return r;
      if (r.status == Outcome::kPassed || last.status != Outcome::kPassed) last = r;
    }
  }
  return last;
}

// Failures of one kind are shrunk and saved once; repeats are counted.
std::string Signature(const CaseResult& r) {
  std::string head = r.reason.substr(0, r.reason.find_first_of(":0123456789"));
  return std::string(r.mode) + "|" + std::string(Name(r.status)) + "|" + head;
}

std::string Hex(uint64_t v) {
  std::ostringstream os;
  os << std::hex << std::setw(16) << std::setfill('0') << v;
  return os.str();
}

// Saves the case (inputs as generated, golden layout) and fuzz.json (how to
// check it again). Returns the folder, or "" after printing why not.
std::string Save(const OpSpec& op, const Params& p, const CaseResult& r, const Probe& probe, const Settings& s,
                 std::ostream& out) {
  const std::string dir = s.save_dir + "/" + op.name + "-" + r.mode + "-" + Hex(HashName(r.id));
  try {
    if (fs::exists(dir)) return dir;  // the same shrunk case, found again
    const std::string tmp = vt::reports::MakeTempDirNextTo(dir);
    if (s.upstream != nullptr) {
      // The golden folder upstream's answer made (the last check was this
      // case's): vt-golden check reruns it without vLLM.
      if (s.upstream->last_golden().empty()) throw std::runtime_error("no upstream golden for this case");
      fs::copy(s.upstream->last_golden(), tmp, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    } else {
      SaveCase(MakeCase(op, p), tmp);
    }
    nlohmann::ordered_json j = {{"tool", "vt-fuzz"},      {"op", op.name},          {"mode", r.mode},
                                {"id", r.id},             {"variant", probe.error}, {"threads", probe.threads},
                                {"tier", Name(r.tier)},   {"status", Name(r.status)}, {"reason", r.reason},
                                {"repro", s.upstream != nullptr ? "vt-golden check " + dir : r.repro}};
    if (r.mode == "equivalence") j["variant"] = r.id.substr(r.id.rfind('#') + 1);
    std::ofstream(fs::path(tmp) / "fuzz.json") << j.dump(1) << "\n";
    vt::reports::CommitTempDir(tmp, dir);
    return dir;
  } catch (const std::exception& e) {
    out << "  could not save the case: " << e.what() << "\n";
    return "";
  }
}

void PrintResult(const CaseResult& r, std::ostream& out) {
  out << "  " << r.id << "\n  " << Name(r.status) << " (" << r.mode << ")"
      << (r.reason.empty() ? std::string() : ": " + r.reason) << "\n";
  if (!r.detail.empty()) {
    std::istringstream lines(r.detail);
    std::string line;
    for (int n = 0; n < 12 && std::getline(lines, line); ++n) out << "    " << line << "\n";
  }
}

}  // namespace

nlohmann::ordered_json OpReport::ToJson() const {
  nlohmann::ordered_json j = {{"op", op},
                              {"cases", cases},
                              {"failed", failed},
                              {"seconds", seconds},
                              {"cases_per_second", CasesPerSecond()}};
  if (!skipped.empty()) j["skipped"] = skipped;
  j["coverage"] = coverage;
  if (!missed.empty()) j["missed"] = missed;
  nlohmann::ordered_json unjudgeable = nlohmann::ordered_json::object();
  for (const auto& [mode, n] : judged) {
    if (n.first > 0) unjudgeable[mode] = {{"unjudgeable", n.first}, {"checks", n.second}};
  }
  if (!unjudgeable.empty()) j["unjudgeable"] = unjudgeable;
  j["failures"] = nlohmann::ordered_json::array();
  for (const Found& f : failures) {
    if (f.repeat) continue;
    j["failures"].push_back({{"mode", f.shrunk.mode},
                             {"status", Name(f.shrunk.status)},
                             {"found", f.first.id},
                             {"shrunk", f.shrunk.id},
                             {"shrink_steps", f.shrink_steps},
                             {"reason", f.shrunk.reason},
                             {"repro", f.shrunk.repro},
                             {"saved", f.saved}});
  }
  return j;
}

OpReport FuzzOp(const OpSpec& op, const Campaign& campaign, const Settings& s, std::ostream& out) {
  OpReport rep;
  rep.op = op.name;
  std::vector<const Mode*> modes;
  for (const std::string& n : s.modes) modes.push_back(FindMode(n));
  const rc::Gen<Params> g = op.gen(s.tier);
  const std::vector<std::string> value_knobs = vocab::ValueKnobs(op.values);
  std::vector<std::string> values;  // weighted by the campaign
  for (const std::string& v : value_knobs) {
    // A golden cannot vouch for a non-finite value (the golden checker's rule).
    if (s.upstream != nullptr && v == "special") continue;
    const auto w = campaign.values.find(v);
    for (int k = 0; w != campaign.values.end() && k < w->second; ++k) values.push_back(v);
  }
  // Upstream takes contiguous tensors; padded strides are the oracle mode's.
  const bool strided =
      s.upstream == nullptr && !vocab::StridedOperands(op.contract).empty() && !campaign.strides.empty();
  const uint64_t base = SplitMix64(s.seed ^ HashName(op.name));
  std::vector<const ErrorCase*> focus;
  for (const ErrorCase& e : op.errors) {
    for (const std::string& f : campaign.error_focus) {
      if (e.name.find(f) != std::string::npos) {
        focus.push_back(&e);
        break;
      }
    }
  }
  std::map<std::string, int> signatures;  // failure kind -> times seen
  // --upstream: the options no draw the runner key can express matches
  // (moe_combine's expert_out=f16, an extent 0, ...). Found once per op from
  // a stream of their own - not from earlier cases, so case k stays the same
  // in a shard or a rerun - and not targeted after: each targeted case of
  // such an option cost 400 draws, most of a slow key's time.
  std::set<const AxisOption*> unreachable;
  if (s.upstream != nullptr) {
    rc::Random probe_random(SplitMix64(base ^ 0x0f7e5ca1ab1e0000ull));
    for (const Axis& a : campaign.axes) {
      for (const AxisOption& o : a.options) {
        bool found = false;
        for (int attempt = 0; attempt < 400 && !found; ++attempt) {
          const Params cand = g(probe_random.split(), rc::kNominalSize).value();
          found = DTypesAllowed(cand, s.dtypes) && o.match(cand) && s.upstream->Expressible(op, cand);
        }
        if (!found) unreachable.insert(&o);
      }
    }
  }
  const auto t0 = Clock::now();
  auto last_print = t0;
  for (uint64_t k = 0;; ++k) {
    if (s.max_cases > 0 && rep.cases >= s.max_cases) break;
    if (s.seconds > 0 && rep.cases > 0 && Since(t0) >= s.seconds) break;
    if (static_cast<int>(k % static_cast<uint64_t>(s.shard_count)) != s.shard_index) continue;
    // Case k: its own random stream, so a shard or a rerun draws the same case k.
    rc::Random random(base + k * 0x9E3779B97F4A7C15ull);
    const Axis* axis = campaign.axes.empty() ? nullptr : &campaign.axes[k % campaign.axes.size()];
    const AxisOption* target =
        axis == nullptr ? nullptr : &axis->options[(k / campaign.axes.size()) % axis->options.size()];
    if (target != nullptr && unreachable.count(target) != 0) {
      ++rep.missed[axis->name + ": " + target->name];
      target = nullptr;  // any draw the key can express
    }
    std::optional<rc::Shrinkable<Params>> pick, fallback;
    for (int attempt = 0; attempt < 400 && !pick; ++attempt) {
      rc::Shrinkable<Params> cand = g(random.split(), rc::kNominalSize);
      if (!DTypesAllowed(cand.value(), s.dtypes)) continue;
      const bool on_target = target == nullptr || target->match(cand.value());
      if (!on_target && fallback) continue;
      // --upstream: only cases the runner key can express (the rest would be
      // SKIPPED). Asked after the target's cheap match on the knobs: it builds
      // the case's tensors, and asking it of all 400 draws was most of a
      // small case's time (3.5 cases/s for rms_norm at tier ci).
      if (s.upstream != nullptr && !s.upstream->Expressible(op, cand.value())) continue;
      if (on_target) pick = cand;
      else fallback = cand;
    }
    if (!pick && target != nullptr) ++rep.missed[axis->name + ": " + target->name];
    if (!pick) pick = fallback;
    if (!pick) {
      rep.skipped = s.upstream != nullptr ? "no case of 400 draws that the runner key can express (and with its "
                                            "dtypes in --dtype, if given)"
                                          : "no case of 400 draws has all its dtypes in --dtype";
      break;
    }
    // The generic knobs, from the case's own stream.
    const uint64_t knob = StreamValue(s.seed, HashName(op.name) ^ 0xf022, k);
    Params overlay;
    if (values.size() > 1) overlay.Set("values", values[knob % values.size()]);
    if (strided) {
      const int64_t pad = campaign.strides[(knob >> 8) % campaign.strides.size()];
      if (pad > 0) overlay.Set(vocab::kStrideKnob, pad);
    }
    auto apply = [overlay](Params p) {
      for (const auto& [key, v] : overlay.args.items()) p.Set(key, v);
      return p;
    };
    rc::Shrinkable<Params> sh = rc::shrinkable::map(*pick, apply);
    Probe probe;
    probe.threads = s.threads.empty() ? 0 : s.threads[(knob >> 16) % s.threads.size()];
    probe.error_pick = knob >> 24;
    probe.focus = &focus;
    const Params p = sh.value();
    for (const Axis& a : campaign.axes) {
      for (const AxisOption& o : a.options) {
        if (o.match(p)) ++rep.coverage[a.name + ": " + o.name];
      }
    }
    CaseResult r = CheckCase(op, modes, p, probe, s.tier, "", s.upstream, &rep.judged);
    ++rep.cases;
    if (r.status == Outcome::kSkipped && s.upstream != nullptr) {
      ++rep.skipped_cases;
      rep.last_skip = r.reason;
    }
    if (IsFailure(r.status)) {
      ++rep.failed;
      Found f;
      f.first = r;
      const std::string sig = Signature(r);
      const int seen = signatures[sig]++;
      f.repeat = seen > 0;
      if (f.repeat) {
        // Printed a few times (it may be a different bug with the same
        // symptom: the repro line is there), then only counted.
        if (seen <= 3) {
          out << "FAILED again (" << r.mode << ", same kind as an earlier failure, not shrunk): " << r.id << "\n";
          if (seen == 3) out << "  (further failures of this kind are counted, not printed)\n";
        }
        f.shrunk = r;
      } else {
        out << "FAILED " << op.name << "/" << r.mode << " case " << k << " (oracle threads " << probe.threads
            << "):\n";
        PrintResult(r, out);
        out << "shrinking...\n";
        // Greedy descent of the shrink tree: take the first smaller case that
        // still fails in the same mode (the same claim / error case), within
        // budget: a quarter of the op's time, 10..60 s.
        const std::vector<const Mode*> failing = {FindMode(r.mode)};
        const std::string claim = r.mode == "equivalence" ? r.id.substr(r.id.rfind('#') + 1) : "";
        const double budget = s.seconds > 0 ? std::clamp(s.seconds / 4, 10.0, 60.0) : 60.0;
        const auto s0 = Clock::now();
        Params minimal = p;
        for (bool progress = true; progress && f.shrink_steps < 500 && Since(s0) < budget;) {
          progress = false;
          auto shrinks = sh.shrinks();
          while (auto cand = shrinks.next()) {
            if (Since(s0) >= budget) break;
            if (!DTypesAllowed(cand->value(), s.dtypes)) continue;
            Probe pr = probe;
            const CaseResult cr = CheckCase(op, failing, cand->value(), pr, s.tier, claim, s.upstream);
            if (IsFailure(cr.status)) {
              sh = *cand;
              r = cr;
              progress = true;
              ++f.shrink_steps;
              break;
            }
          }
        }
        minimal = sh.value();
        // Then the generic knobs: fewer threads, no specials, no padding.
        for (int step = 0; step < 3; ++step) {
          Params q = minimal;
          Probe pr = probe;
          if (step == 0 && pr.threads > 1) pr.threads = 1;
          else if (step == 1 && q.Has("values") && q.Str("values") != "normal") q.Set("values", "normal");
          else if (step == 2 && q.Has(vocab::kStrideKnob)) q.args.erase(vocab::kStrideKnob);
          else continue;
          const CaseResult cr = CheckCase(op, failing, q, pr, s.tier, claim, s.upstream);
          if (IsFailure(cr.status)) {
            minimal = q;
            probe = pr;
            r = cr;
            ++f.shrink_steps;
          }
        }
 if (s.upstream != nullptr) {
          // Asked once more, so the golden folder saved is this case's.
          Probe pr = probe;
          r = CheckCase(op, failing, minimal, pr, s.tier, claim, s.upstream);
        }
        f.shrunk = r;
        out << "shrunk in " << f.shrink_steps << " steps (" << std::fixed << std::setprecision(1) << Since(s0)
            << " s) to:\n";
        out.unsetf(std::ios::floatfield);
        PrintResult(r, out);
        out << "  repro: " << r.repro << "\n";
        f.saved = IsFailure(r.status) ? Save(op, minimal, r, probe, s, out) : "";
        if (!f.saved.empty()) {
          out << "  saved: " << f.saved << "\n  replay: "
              << (s.upstream != nullptr ? "vt-golden check " : "vt-fuzz --replay ") << f.saved << "\n";
        }
      }
      rep.failures.push_back(std::move(f));
    }
    if (!s.quiet && Since(last_print) >= 2.0) {
      out << "  [" << op.name << "] " << rep.cases << " cases, " << rep.failed << " failed, " << std::fixed
          << std::setprecision(1) << rep.cases / std::max(Since(t0), 1e-9) << " cases/s, "
          << static_cast<int>(Since(t0)) << "/" << (s.seconds > 0 ? std::to_string(static_cast<int>(s.seconds)) : "-")
          << " s\n";
      out.unsetf(std::ios::floatfield);
      last_print = Clock::now();
    }
  }
  rep.seconds = Since(t0);
  return rep;
}

int Replay(const std::string& dir, std::ostream& out) {
  std::vector<std::string> dirs;
  try {
    dirs = FindGoldenDirs({dir});
  } catch (const std::exception& e) {
    std::cerr << "vt-fuzz: --replay: " << e.what() << "\n";
    return 2;
  }
  if (dirs.empty()) {
    std::cerr << "vt-fuzz: --replay: no saved case (a folder with manifest.json) under '" << dir << "'\n";
    return 2;
  }
  int reproduced = 0, passing = 0, broken = 0;
  for (const std::string& d : dirs) {
    try {
      std::ifstream f(fs::path(d) / "fuzz.json");
      if (!f) throw std::runtime_error("no fuzz.json: not a case vt-fuzz saved");
      const nlohmann::json j = nlohmann::json::parse(f);
      if (j.at("mode").get<std::string>() == "upstream") {
        // Saved by --upstream: a golden folder (upstream's outputs inside),
        // judged by the golden checker as vt-golden check does.
        RunConfig cfg;
        cfg.threads = j.value("threads", 0);
        const CaseResult r = CheckGoldenDir(d, cfg);
        if (IsFailure(r.status)) {
          ++reproduced;
          out << "REPRODUCED " << d << "\n";
        } else {
          ++passing;
          out << "PASSES NOW " << d << "\n";
        }
        PrintResult(r, out);
        continue;
      }
      const Case saved = LoadCase(d);
      const OpSpec* op = FindOp(saved.params.op);
      if (op == nullptr) throw std::runtime_error("op '" + saved.params.op + "' is not in this build's catalog");
      const Mode* mode = FindMode(j.at("mode").get<std::string>());
      if (mode == nullptr) throw std::runtime_error("unknown mode in fuzz.json");
      // Bit for bit: the case this build makes from the saved identity must
      // be the saved bytes, or the replay would check something else.
      const Case now = MakeCase(*op, saved.params);
      for (const TensorData& t : saved.tensors) {
        const TensorData* n = now.Find(t.name);
        if (n == nullptr || n->dtype != t.dtype || n->shape != t.shape || n->strides != t.strides ||
            n->LogicalBytes() != t.LogicalBytes()) {
          throw std::runtime_error("tensor '" + t.name + "' as generated now differs from the saved bytes "
                                   "(the generator changed since the case was saved)");
        }
      }
      if (now.tensors.size() != saved.tensors.size()) throw std::runtime_error("the case now has other tensors");
      CaseRef ref{j.at("id").get<std::string>(), saved.params, j.value("variant", ""), ""};
      RunConfig cfg;
      cfg.tier = ParseTier(j.value("tier", "full")).value_or(Tier::kFull);
      cfg.threads = j.value("threads", 0);
      cfg.isa = FlagIsa();
      const CaseResult r = Guarded(*mode, *op, ref, cfg);
      if (IsFailure(r.status)) {
        ++reproduced;
        out << "REPRODUCED " << d << "\n";
      } else {
        ++passing;
        out << "PASSES NOW " << d << "\n";
      }
      PrintResult(r, out);
      out << "  repro: " << r.repro << "\n";
    } catch (const std::exception& e) {
      ++broken;
      out << "CANNOT REPLAY " << d << ": " << e.what() << "\n";
    }
  }
  out << reproduced << " reproduced, " << passing << " pass now, " << broken << " could not be replayed\n";
  return broken > 0 ? 2 : reproduced > 0 ? 1 : 0;
}

}  // namespace vt::conform::fuzz
