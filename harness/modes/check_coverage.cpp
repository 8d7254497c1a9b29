#include "harness/modes/check_coverage.h"

#include <algorithm>

#include "vt/check_sites.h"
#include "vt/error.h"

namespace vt::conform {
namespace {

constexpr int64_t kMaxElements = int64_t{1} << 16;

// Records the sites of one op's validator while installed on this thread.
// Sites of other ops reached from inside it (fused_chain's composite tier
// calls rms_norm) belong to those ops and are not counted.
class SiteRecorder : public vt::CheckSiteObserver {
 public:
  SiteRecorder(std::string op, std::set<std::string>* into) : op_(std::move(op)), into_(into) {
    previous_ = vt::SetCheckSiteObserver(into_ != nullptr ? this : nullptr);
  }
  ~SiteRecorder() override { vt::SetCheckSiteObserver(previous_); }
  void Evaluated(std::string_view op, const std::string& site) override {
    if (op == op_) into_->insert(site);
  }

 private:
  std::string op_;
  std::set<std::string>* into_;
  vt::CheckSiteObserver* previous_ = nullptr;
};

}  // namespace

bool NamesTheViolation(const std::string& condition, const std::string& expect) {
  if (expect.empty()) return true;
  std::size_t start = 0;
  for (;;) {
    const std::size_t bar = expect.find('|', start);
    const std::string fragment = expect.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
    if (!fragment.empty() && condition.find(fragment) != std::string::npos) return true;
    if (bar == std::string::npos) return false;
    start = bar + 1;
  }
}

ErrorDraws DrawErrorCases(const OpSpec& op, const RunConfig& cfg) {
  ErrorDraws d;
  const int want = DrawCount("negative", cfg.tier);
  // Validation does not depend on size: error cases use the drawn cases of
  // at most kMaxElements elements (the large ones are there for the
  // numerics), so the mode stays fast.
  std::vector<Params> pool;
  std::vector<Case> specs;
  for (const Params& p : TierCases(op, cfg, std::max(want * 16, 24))) {
    Case spec = BuildCase(op, p);
    if (CaseElements(spec) > kMaxElements) continue;
    pool.push_back(p);
    specs.push_back(std::move(spec));
  }
  for (const ErrorCase& ec : op.errors) {
    int n = 0;
    for (std::size_t i = 0; i < pool.size(); ++i) {
      const Params& p = pool[i];
      if (n == want) break;
      Case probe = specs[i];
      if (!ec.mutate(probe)) continue;
      d.runs.push_back({&ec, p});
      ++n;
    }
    if (n == 0) d.unused.push_back({&ec, pool.size()});
  }
  return d;
}

Attempt AttemptErrorCase(const OpSpec& op, const ErrorCase& ec, const Case& mutated,
                         std::set<std::string>* evaluated_sites) {
  Attempt a;
  Workspace ws(mutated);
  if (ec.bind) ec.bind(ws);
  {
    SiteRecorder rec(op.name, evaluated_sites);
    try {
      op.run(vt::ExecContext{vt::Backend::kCPU, 1, false}, ws);
    } catch (const vt::Error& e) {
      a.refused = true;
      a.refusing_op = e.op();
      a.site = e.site();
      a.condition = e.condition();
      a.what = e.what();
    } catch (const std::exception& e) {
      a.foreign_exception = true;
      a.what = e.what();
    }
  }
  a.changed = ws.CheckUnchanged();
  return a;
}

std::set<std::string> CheckCoverage::AllSites() const {
  std::set<std::string> all = valid;
  all.insert(by_errors.begin(), by_errors.end());
  for (const auto& [site, ec] : refused) all.insert(site);
  return all;
}

std::vector<std::string> CheckCoverage::Uncovered() const {
  std::vector<std::string> v;
  for (const std::string& s : AllSites()) {
    if (refused.count(s) == 0) v.push_back(s);
  }
  return v;
}

std::vector<std::string> CheckCoverage::Unreached() const {
  std::vector<std::string> v;
  for (const std::string& s : AllSites()) {
    if (valid.count(s) == 0) v.push_back(s);
  }
  return v;
}

std::string CheckCoverage::ToText() const {
  std::string out;
  for (const std::string& s : AllSites()) {
    const auto it = refused.find(s);
    out += "  " + s + ": " + (valid.count(s) ? "reached" : "NOT REACHED by valid cases") + ", " +
           (it != refused.end() ? "refuses " + it->second : "NO ERROR CASE REFUSED HERE") + "\n";
  }
  return out;
}

std::string CheckCoverage::Serialize() const {
  Json j;
  j["valid"] = valid;
  j["by_errors"] = by_errors;
  j["refused"] = refused;
  j["valid_cases"] = valid_cases;
  j["error_runs"] = error_runs;
  return j.dump();
}

CheckCoverage CheckCoverage::Deserialize(const std::string& s) {
  const Json j = Json::parse(s);
  CheckCoverage c;
  c.valid = j.at("valid").get<std::set<std::string>>();
  c.by_errors = j.at("by_errors").get<std::set<std::string>>();
  c.refused = j.at("refused").get<std::map<std::string, std::string>>();
  c.valid_cases = j.at("valid_cases").get<int>();
  c.error_runs = j.at("error_runs").get<int>();
  return c;
}

CheckCoverage MeasureCheckCoverage(const OpSpec& op, const RunConfig& run_cfg) {
  // A property of the op, not of the requested tier: the smoke tier's four
  // draws reach too few branches, so it is measured on the ci draws at least.
  RunConfig cfg = run_cfg;
  if (cfg.tier == Tier::kSmoke) cfg.tier = Tier::kCi;
  CheckCoverage cov;
  // Valid input: the cases the oracle mode draws, run at 1 thread.
  for (const Params& p : TierCases(op, cfg, DrawCount("oracle", cfg.tier))) {
    if (CaseElements(BuildCase(op, p)) > kMaxElements) continue;  // same sites, more time
    const Case c = MakeCase(op, p);
    Workspace ws(c);
    SiteRecorder rec(op.name, &cov.valid);
    try {
      op.run(vt::ExecContext{vt::Backend::kCPU, 1, false}, ws);
    } catch (const std::exception&) {
      // A refused valid case is the oracle mode's finding; the sites it
      // reached before the refusal still count as reached.
    }
    ++cov.valid_cases;
  }
  const ErrorDraws draws = DrawErrorCases(op, cfg);
  for (const auto& [ec, p] : draws.runs) {
    Case c = MakeCase(op, p);
    if (!ec->mutate(c)) continue;
    Materialize(c);
    const Attempt a = AttemptErrorCase(op, *ec, c, &cov.by_errors);
    ++cov.error_runs;
    // Only a refusal for the right reason proves its site.
    if (a.refused && a.refusing_op == op.name && !a.site.empty() && a.changed.empty() &&
        NamesTheViolation(a.condition, ec->expect)) {
      cov.refused.emplace(a.site, ec->name);
    }
  }
  return cov;
}

}  // namespace vt::conform
