// equivalence mode: every claim the op declares ("bit-identical to ...") is run
// on tier cases it applies to. A claim that applies to no drawn case is
// reported (FAILED_ERROR), never silently skipped: a claim that never runs
// proves nothing.
#include "harness/modes/mode.h"

namespace vt::conform {
namespace {

const Claim* FindClaim(const OpSpec& op, const std::string& name) {
  for (const Claim& c : op.claims) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

class EquivalenceMode : public Mode {
 public:
  std::string_view name() const override { return "equivalence"; }
  bool Covers(const OpSpec& op) const override { return !op.claims.empty(); }

  std::vector<CaseRef> Enumerate(const OpSpec& op, const RunConfig& cfg) const override {
    const int want = DrawCount(name(), cfg.tier);
    // Claims often apply to a slice of the space (gemma=1, a residual, rank 3):
    // draw from a longer stream of tier cases.
    const std::vector<Params> pool = TierCases(op, cfg, want * 24);
    std::vector<CaseRef> refs;
    for (const Claim& claim : op.claims) {
      int n = 0;
      for (const Params& p : pool) {
        if (n == want) break;
        if (claim.applies && !claim.applies(p)) continue;
        refs.push_back({p.Identity() + "#" + claim.name, p, claim.name, ""});
        ++n;
      }
      if (n == 0) {
        CaseRef none;
        none.id = op.name + "#" + claim.name;
        none.variant = claim.name;
        none.note = "claim '" + claim.name + "' applies to none of " + std::to_string(pool.size()) + " drawn cases";
        refs.push_back(none);
      }
    }
    return refs;
  }

  CaseRef Parse(const OpSpec& op, const std::string& id) const override {
    const std::size_t hash = id.rfind('#');
    if (hash == std::string::npos) throw std::invalid_argument("equivalence case ids end in #claim");
    CaseRef r = Mode::Parse(op, id.substr(0, hash));
    r.id = id;
    r.variant = id.substr(hash + 1);
    return r;
  }

  CaseResult Check(const OpSpec& op, const CaseRef& ref, const RunConfig& cfg) const override {
    CaseResult r = StartResult(op, name(), ref, cfg);
    const Claim* claim = FindClaim(op, ref.variant);
    if (!ref.note.empty() || claim == nullptr) {
      r.status = Outcome::kFailedError;
      r.reason = ref.note.empty() ? "no claim named '" + ref.variant + "'" : ref.note;
      return r;
    }
    r.tolerance = "exact bytes: " + claim->statement;
    try {
      vt::ExecContext ctx;
      ctx.threads = cfg.threads;
      const ClaimOutcome out = claim->check(op, MakeCase(op, ref.params), ctx);
      switch (out.status) {
        case ClaimOutcome::Status::kHolds: break;
        case ClaimOutcome::Status::kViolated:
          r.status = Outcome::kFailedIncorrect;
          r.reason = claim->name + " violated: " + out.detail;
          break;
        case ClaimOutcome::Status::kNotApplicable:
          r.status = Outcome::kSkipped;
          r.reason = claim->name + " does not apply: " + out.detail;
          break;
      }
    } catch (const std::exception& e) {
      r.status = Outcome::kFailedError;
      r.reason = claim->name + ": " + e.what();
    }
    return r;
  }
};

}  // namespace

std::unique_ptr<Mode> MakeEquivalenceMode() { return std::make_unique<EquivalenceMode>(); }

}  // namespace vt::conform
