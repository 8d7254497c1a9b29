// negative mode: each error case (one violated precondition of a valid case)
// must be refused with vt::Error naming the op, every operand - guards and
// strided gaps included - must come back byte-unchanged (validate before
// mutate), and the refusal must name what was broken (ErrorCase::expect).
// Cases run in a forked child at 1 thread so that a missing check that
// crashes or hangs the kernel is reported, not fatal to the run. One more case
// per op, "<op>!check_coverage", proves every validator check site is reached
// by valid input and refuses some error case (harness/modes/check_coverage.h).
#include <malloc.h>

#include "harness/catalog/claims.h"
#include "harness/modes/check_coverage.h"
#include "harness/modes/isolate.h"
#include "harness/modes/mode.h"

namespace vt::conform {
namespace {

constexpr const char* kCoverageCase = "check_coverage";

const ErrorCase* FindError(const OpSpec& op, const std::string& name) {
  for (const ErrorCase& e : op.errors) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

struct Verdict {
  Outcome status = Outcome::kPassed;
  std::string reason;
};

Verdict Judge(const OpSpec& op, const ErrorCase& ec, const Case& c) {
  const Attempt a = AttemptErrorCase(op, ec, c, nullptr);
  Verdict v;
  if (a.foreign_exception) {
    v = {Outcome::kFailedError, "threw a non-vt::Error exception: " + a.what};
  } else if (!a.refused) {
    v = {Outcome::kFailedIncorrect, "accepted an invalid case (no vt::Error)"};
  } else if (a.refusing_op != op.name) {
    v = {Outcome::kFailedIncorrect, "refused by '" + a.refusing_op + "' instead of '" + op.name + "': " + a.what};
  } else if (!NamesTheViolation(a.condition, ec.expect)) {
    v = {Outcome::kFailedIncorrect, "refused for another reason: " + a.what + " [site " + a.site +
                                        "] (expected a condition about '" + ec.expect + "')"};
  } else {
    v.reason = a.what + " [site " + a.site + "]";
  }
  if (!a.changed.empty()) v = {Outcome::kFailedIncorrect, a.changed + " (" + v.reason + ")"};
  return v;
}

// The error case `ec_name` of the valid case `p`, built, broken and judged:
// SKIPPED when the error case does not apply to this case.
Verdict JudgeErrorCase(const OpSpec& op, const Params& p, const std::string& ec_name) {
  const ErrorCase* ec = FindError(op, ec_name);
  if (ec == nullptr) return {Outcome::kFailedError, "no error case named '" + ec_name + "'"};
  Case c = MakeCase(op, p);
  if (!ec->mutate(c)) return {Outcome::kSkipped, "error case does not apply to this case"};
  Materialize(c);
  return Judge(op, *ec, c);
}

// One child per op answers all its error cases (harness/modes/isolate.h):
// the request is the case (params and error case name) as JSON, the answer
// "<status>\n<reason>". The child builds the case itself, so the parent
// neither materializes the operands nor forks per case.
Verdict JudgeIsolated(const OpSpec& op, const Params& p, const std::string& ec_name) {
  static IsolatedServer server;
  const Json request = {{"args", p.args}, {"seed", p.seed}, {"error", ec_name}};
  const Isolated r = server.Call(
      op.name,
      [&op](const std::string& text) {
        const Json j = Json::parse(text);
        Params q(op.name);
        q.args = j.at("args");
        q.seed = j.at("seed").get<uint64_t>();
        const Verdict v = JudgeErrorCase(op, q, j.at("error").get<std::string>());
        return std::to_string(static_cast<int>(v.status)) + "\n" + v.reason;
      },
      request.dump(), 20);
  if (!r.ok) return {Outcome::kFailedError, r.output + " (a missing check let the kernel run)"};
  const std::size_t nl = r.output.find('\n');
  if (nl == std::string::npos) return {Outcome::kFailedError, "the isolated child reported nothing"};
  const Verdict v{static_cast<Outcome>(std::stoi(r.output.substr(0, nl))), r.output.substr(nl + 1)};
  // A kernel that ran on bad input may have left anything behind in the
  // child: the next error case gets a fresh copy of this process.
  if (v.status != Outcome::kPassed && v.status != Outcome::kSkipped) server.Retire();
  return v;
}

CaseResult CheckCoverageCase(const OpSpec& op, CaseResult r, const RunConfig& cfg) {
  CheckCoverage cov;
  if (cfg.isolate) {
    const Isolated iso = RunIsolated([&] { return MeasureCheckCoverage(op, cfg).Serialize(); }, 120);
    if (!iso.ok) {
      r.status = Outcome::kFailedError;
      r.reason = "measuring check coverage: " + iso.output;
      return r;
    }
    cov = CheckCoverage::Deserialize(iso.output);
  } else {
    cov = MeasureCheckCoverage(op, cfg);
  }
  const auto uncovered = cov.Uncovered();
  const auto unreached = cov.Unreached();
  const std::size_t sites = cov.AllSites().size();
  r.tolerance = "every validator check site reached by valid cases and refusing >= 1 error case";
  r.metrics["check_coverage"] = {{"sites", sites},
                                 {"refusing", sites - uncovered.size()},
                                 {"reached", sites - unreached.size()},
                                 {"valid_cases", cov.valid_cases},
                                 {"error_runs", cov.error_runs}};
  r.detail = cov.ToText();
  if (sites == 0) {
    r.status = Outcome::kFailedIncorrect;
    r.reason = "no check site observed: the op's validator reports none";
  } else if (!uncovered.empty() || !unreached.empty()) {
    r.status = Outcome::kFailedIncorrect;
    std::string list;
    for (const auto& s : uncovered) list += " " + s + " (no error case refused here)";
    for (const auto& s : unreached) list += " " + s + " (no valid case reaches it)";
    r.reason = std::to_string(sites - uncovered.size()) + "/" + std::to_string(sites) +
               " sites proven; uncovered:" + list;
  } else {
    r.reason = std::to_string(sites) + "/" + std::to_string(sites) + " check sites reached and refusing";
  }
  return r;
}

class NegativeMode : public Mode {
 public:
  std::string_view name() const override { return "negative"; }
  bool Covers(const OpSpec& op) const override { return !op.errors.empty(); }

  std::vector<CaseRef> Enumerate(const OpSpec& op, const RunConfig& cfg) const override {
    std::vector<CaseRef> refs;
    const ErrorDraws draws = DrawErrorCases(op, cfg);
    for (const auto& [ec, p] : draws.runs) refs.push_back({p.Identity() + "!" + ec->name, p, ec->name, ""});
    for (const auto& [ec, tried] : draws.unused) {
      CaseRef none;
      none.id = op.name + "!" + ec->name;
      none.variant = ec->name;
      none.note = "error case '" + ec->name + "' applies to none of " + std::to_string(tried) + " drawn cases";
      refs.push_back(none);
    }
    CaseRef cov;
    cov.id = op.name + "!" + kCoverageCase;
    cov.params = Params(op.name);
    cov.variant = kCoverageCase;
    refs.push_back(cov);
    return refs;
  }

  CaseRef Parse(const OpSpec& op, const std::string& id) const override {
    const std::size_t bang = id.rfind('!');
    if (bang == std::string::npos) throw std::invalid_argument("negative case ids end in !error");
    if (id.substr(bang + 1) == kCoverageCase) {
      CaseRef r;
      r.id = id;
      r.params = Params(op.name);
      r.variant = kCoverageCase;
      return r;
    }
    CaseRef r = Mode::Parse(op, id.substr(0, bang));
    r.id = id;
    r.variant = id.substr(bang + 1);
    return r;
  }

  CaseResult Check(const OpSpec& op, const CaseRef& ref, const RunConfig& cfg) const override {
    CaseResult r = StartResult(op, name(), ref, cfg);
    if (ref.variant == kCoverageCase) return CheckCoverageCase(op, r, cfg);
    if (!ref.note.empty()) {
      r.status = Outcome::kSkipped;
      r.reason = ref.note;
      return r;
    }
    r.tolerance = "refused with vt::Error, operands unchanged";
    if (cfg.isolate) {
      // Each op's child is forked from this process, and a fork costs in
      // proportion to what is mapped: the freed buffers of earlier ops' big
      // cases stay mapped in malloc's arenas. Hand them back once per op.
      static thread_local std::string trimmed_for;
      if (trimmed_for != op.name) {
        malloc_trim(0);
        trimmed_for = op.name;
      }
    }
    const Verdict v = cfg.isolate ? JudgeIsolated(op, ref.params, ref.variant)
                                  : JudgeErrorCase(op, ref.params, ref.variant);
    r.status = v.status;
    r.reason = v.status == Outcome::kPassed ? "refused: " + v.reason : v.reason;
    if (v.status == Outcome::kSkipped) r.tolerance.clear();
    return r;
  }
};

}  // namespace

std::unique_ptr<Mode> MakeNegativeMode() { return std::make_unique<NegativeMode>(); }

}  // namespace vt::conform
