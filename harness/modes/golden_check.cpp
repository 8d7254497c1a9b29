#include "harness/modes/golden_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/catalog/catalog.h"
#include "harness/catalog/claims.h"
#include "harness/core/compare.h"
#include "harness/catalog/composite/composite_adapters.h"
#include "harness/modes/known_ops.h"
#include "harness/modes/tier_bytes.h"
#include "vt/isa.h"

namespace vt::conform {
namespace {

struct Side {
  int64_t n = 0, bad = 0, nonfinite = 0;
  double max_abs = 0, max_rel = 0, headroom = 0;
  TrustCounts trust;          // the trust rule's counts (trust.vacuous: elements not judged)
  int64_t outside_model = 0;  // golden values outside our own tolerance interval
  double model_ulps = 0;      // max |golden - oracle| in ulps of the output format
  std::string first_bad;
  std::string mistrust;       // why the golden cannot vouch for this output ("" when it can)
};

// own_tol: the op's tolerance for this output. Under the baseline rule the
// per-element e is not a bound (empty, 0, or infinite where the element is
// judged by equality with the f32 definition): the half-width is c *
// baseline_err + floor (compare.cpp, Accept), which the own-model statistic
// uses too.
Side Compare(const TensorData& got_t, const TensorData& want_t, const Expected* own, const Tolerance* own_tol,
             double atol, double rtol, double max_zero_fraction, bool nonfinite_inputs) {
  Side s;
  const auto got = got_t.Values(), want = want_t.Values();
  s.n = static_cast<int64_t>(got.size());
  // The oracle mode's trust rule (compare.h) with the golden as the reference
  // and atol + rtol*|w| as the acceptance half-width: a tolerance of 1e30 over
  // garbage is MISTRUSTED, not passed.
  TrustCounts& trust = s.trust;
  trust.n = s.n;
  trust.nonfinite_inputs = nonfinite_inputs;
  double sum_sq = 0;
  int64_t finite = 0;
  for (const double w : want) {
    if (std::isfinite(w)) {
      sum_sq += w * w;
      ++finite;
    }
  }
  const double rms = finite > 0 ? std::sqrt(sum_sq / static_cast<double>(finite)) : 0.0;
  for (const double w : want) {
    if (std::isnan(w)) ++trust.nans;
    if (w == 0.0) ++trust.zeros;
    if (w != 0.0 && std::isfinite(w)) {
      ++trust.nonzero;
      if (VacuousTolerance(atol + rtol * std::fabs(w), w, rms)) ++trust.vacuous;
    }
  }
  s.mistrust = s.n == 0 ? "zero elements compared" : MistrustReason(trust, max_zero_fraction);
  for (std::size_t k = 0; k < got.size(); ++k) {
    const double g = got[k], w = want[k];
    if (!std::isfinite(g) || !std::isfinite(w)) {
      // A golden cannot vouch for a non-finite value (the reference runner's rule).
      ++s.nonfinite;
      ++s.bad;
      continue;
    }
    const double d = std::fabs(g - w), allowed = atol + rtol * std::fabs(w);
    s.max_abs = std::max(s.max_abs, d);
    s.max_rel = std::max(s.max_rel, w != 0 ? d / std::fabs(w) : (d == 0 ? 0.0 : INFINITY));
    s.headroom = std::max(s.headroom, allowed > 0 ? d / allowed : (d == 0 ? 0.0 : INFINITY));
    if (d > allowed) {
      if (s.bad == 0) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "first at flat %zu: golden %.9g, got %.9g (|d| %.3g > %.3g)", k, w, g, d, allowed);
        s.first_bad = buf;
      }
      ++s.bad;
    }
    if (own != nullptr && k < own->v.size()) {
      double e = own->e.empty() ? 0.0 : own->e[k];
      double v = own->v[k];
      if (own_tol != nullptr && own_tol->kind == Tolerance::Kind::kBaseline) {
        if (std::isfinite(e)) {
          e = own_tol->c * own->baseline_err + own_tol->floor;
        } else if (k < own->f32.size()) {  // judged by equality with the f32 definition
          v = own->f32[k];
          e = 0.0;
        }
      }
      const double lo = oracle::RoundReal(got_t.fmt, v - e), hi = oracle::RoundReal(got_t.fmt, v + e);
      if (w < lo || w > hi) ++s.outside_model;
      s.model_ulps = std::max(s.model_ulps, std::fabs(w - v) / oracle::UlpOf(got_t.fmt, v));
    }
  }
  return s;
}

}  // namespace

std::pair<const OpSpec*, const GoldenAdapter*> FindGoldenAdapter(const std::string& manifest_op) {
  for (const OpSpec& op : Catalog()) {
    for (const GoldenAdapter& a : op.goldens) {
      if (a.manifest_op == manifest_op) return {&op, &a};
    }
  }
  // Composite manifests mapped by a harness module of their own
  // (composite_adapters.h), when the op they run is in the catalog.
  for (const CompositeGoldenAdapter& c : CompositeGoldenAdapters()) {
    if (c.adapter.manifest_op != manifest_op) continue;
    if (const OpSpec* op = FindOp(c.run_op)) return {op, &c.adapter};
  }
  return {nullptr, nullptr};
}

namespace {

// The CPU tiers besides the one a call picks by default that this op has and
// this CPU runs (portable included); none when the run asked for one tier
// (--isa), which is then the only one checked.
std::vector<vt::Isa> OtherTiers(const OpSpec& op, const RunConfig& cfg) {
  std::vector<vt::Isa> out;
  if (cfg.isa != vt::Isa::kAuto) return out;
  const vt::Isa picked = vt::ExecContext{vt::Backend::kCPU, 1, false}.ResolvedIsa();
  std::vector<vt::Isa> all = vt::OpTiers(op.name);
  if (all.empty()) return out;  // portable only: nothing else to run
  all.insert(all.begin(), vt::Isa::kPortable);
  for (const vt::Isa t : all) {
    if (t != picked && vt::IsaSupported(t)) out.push_back(t);
  }
  return out;
}

CaseResult CheckLoaded(const std::string& dir, const RunConfig& cfg, CaseResult r) {
  GoldenCase g;
  try {
    g = LoadGolden(dir);
  } catch (const std::exception& e) {
    const std::string op = PeekManifestOp(dir);
    r.op = op.empty() ? "?" : op;
    r.status = Outcome::kFailedError;
    r.reason = std::string("refused: ") + e.what();
    return r;
  }
  auto [op, adapter] = FindGoldenAdapter(g.op);
  if (op == nullptr) {
    r.op = g.op;
    if (!IsKnownGoldenOp(g.op)) {
      r.status = Outcome::kFailedError;
      r.reason = "refused: " + dir + "/manifest.json: unknown op '" + g.op +
                 "' (neither a seed op nor a known upstream/composite op: a typo or a stale capture?)";
      return r;
    }
    r.status = Outcome::kUnsupported;
    r.reason = "no catalog op maps manifest op '" + g.op + "' yet";
    return r;
  }
  r.op = op->name;
  GoldenMapping map;
  try {
    map = adapter->map(g);
  } catch (const GoldenUnsupported& e) {
    r.status = Outcome::kUnsupported;
    r.reason = op->name + " cannot express this '" + g.op + "' case: " + e.what();
    return r;
  } catch (const GoldenError& e) {
    r.status = Outcome::kFailedError;
    r.reason = std::string("refused: ") + e.what();
    return r;
  } catch (const std::exception& e) {
    // An adapter reading an arg of the wrong type is the manifest's fault.
    r.status = Outcome::kFailedError;
    r.reason = "refused: " + dir + "/manifest.json: " + e.what();
    return r;
  }
  for (const GoldenMapping::SideCheck& side : map.side_checks) {
    r.detail += "  " + side.golden + " (checked by the adapter): " + side.line + "\n";
    if (!side.failure.empty() && r.status == Outcome::kPassed) {
      r.status = Outcome::kFailedIncorrect;
      r.reason = side.golden + ": " + side.failure;
    }
  }
  if ((!g.atol || !g.rtol) && map.tol_if_absent) {
    // A capture recorded without 'tol' (a focused upstream test that states
    // its own agreement): the adapter's documented tolerance stands in.
    g.atol = map.tol_if_absent->atol;
    g.rtol = map.tol_if_absent->rtol;
    r.tolerance = "manifest has no 'tol': the adapter's atol/rtol (" + map.tol_if_absent->why + ")";
  }
  if (!g.atol || !g.rtol) {
    r.status = Outcome::kFailedError;
    r.reason = "refused: " + dir + "/manifest.json: no 'tol' {atol, rtol} to judge the outputs by";
    return r;
  }
  if (map.compare.empty()) {
    r.status = Outcome::kMistrusted;
    r.reason = "the adapter compares nothing for this case";
    return r;
  }
  if (!map.run_op.empty()) {
    op = FindOp(map.run_op);
    if (op == nullptr) throw std::logic_error("golden adapter names unknown op " + map.run_op);
    r.op = op->name;
  }
  r.seed = map.c.params.seed;
  Execution one, many;
  // The other CPU tiers (the isa mode's rule, here on the golden's operands):
  // each must give the default tier's bytes; the first that does not is
  // judged against the golden in its place, and is a failure even within the
  // tolerance. Without it a golden - vt-fuzz --upstream's too - vouches for
  // the one tier this CPU picks: a bug in the portable reference, or in
  // avx2 on an avx512 machine, went unseen.
  std::string tier_diff;
  try {
    const vt::ExecContext ctx_one{vt::Backend::kCPU, 1, false, cfg.isa},
        ctx_many{vt::Backend::kCPU, cfg.threads, false, cfg.isa};
    one = Execute(*op, map.c, ctx_one);
    many = Execute(*op, map.c, ctx_many);
    if (map.then) {
      map.then(one.after, ctx_one);
      map.then(many.after, ctx_many);
    }
    for (const vt::Isa t : OtherTiers(*op, cfg)) {
      const vt::ExecContext ctx_t{vt::Backend::kCPU, 1, false, t};
      Execution other = Execute(*op, map.c, ctx_t);
      if (map.then) map.then(other.after, ctx_t);
      for (const auto& [case_name, golden_name] : map.compare) {
        const TensorData& got = other.after.Get(case_name);
        const TensorData& want = one.after.Get(case_name);
        if (got.storage == want.storage) continue;
        int64_t nan_pairs = 0;  // NaN payloads aside, as the isa mode (tier_bytes.h)
        if (!op->oracle_bytes && NanLatitude(got, want, nan_pairs) == want.storage) continue;
        const std::string d = DiffBytes(got, want);
        tier_diff = std::string("isa ") + std::string(vt::Name(t)) + ": " + case_name + " differs from the " +
                    std::string(vt::Name(ctx_one.ResolvedIsa())) + " tier's bytes: " + d;
        r.isa = std::string(vt::Name(t));  // the repro line names the tier
        break;
      }
      if (!tier_diff.empty()) {
        many = Execute(*op, map.c, vt::ExecContext{vt::Backend::kCPU, cfg.threads, false, t});
        if (map.then) map.then(many.after, ctx_t);
        one = std::move(other);
        break;
      }
    }
  } catch (const std::exception& e) {
    r.status = Outcome::kFailedError;
    r.reason = op->name + " refused or failed on the golden's operands: " + e.what();
    return r;
  }
  if (!one.guard_error.empty() || !many.guard_error.empty()) {
    r.status = Outcome::kFailedError;
    r.reason = "wrote outside its operands: " + one.guard_error + many.guard_error;
    return r;
  }
  OracleResult own;
  std::string own_error;
  try {
    own = op->oracle_given ? op->oracle_given(map.c, one.after) : op->oracle(map.c);
  } catch (const std::exception& e) {
    own_error = e.what();
  }
  const std::vector<OutputSpec> own_specs = op->outputs(map.c);
  for (const OutputSpec& o : own_specs) {
    r.tolerance += (r.tolerance.empty() ? "" : "; ") + o.tensor + ": own " + o.tol.Describe();
  }
  char buf[512];
  std::snprintf(buf, sizeof buf, "golden(atol=%g, rtol=%g) from the manifest", *g.atol, *g.rtol);
  r.tolerance = std::string(buf) + (r.tolerance.empty() ? "" : "; " + r.tolerance);
  double headroom = 0;
  std::string mistrust;
  const bool nonfinite_inputs = AnyInputNonFinite(map.c);
  for (const auto& [case_name, golden_name] : map.compare) {
    const TensorData& got = one.after.Get(case_name);
    const auto relaid = map.golden_relaid.find(golden_name);
    const TensorData& want = relaid != map.golden_relaid.end() ? relaid->second : g.Get(golden_name);
    const std::string d = DiffBytes(got, many.after.Get(case_name));
    if (!d.empty()) {
      r.status = Outcome::kFailedIncorrect;
      r.reason = "threads=1 and threads=" + std::to_string(cfg.threads) + " differ: " + d;
      return r;
    }
    if (got.Numel() != want.Numel()) {
      r.status = Outcome::kFailedError;
      r.reason = golden_name + ": golden has " + std::to_string(want.Numel()) + " elements, " + case_name +
                 " has " + std::to_string(got.Numel());
      return r;
    }
    double atol = *g.atol, rtol = *g.rtol;
    if (const auto t = map.tighter.find(case_name); t != map.tighter.end()) {
      if (t->second.atol > atol || t->second.rtol > rtol) {
        throw std::logic_error("golden adapter for " + g.op + " loosens the manifest's tolerance on " + case_name);
      }
      atol = t->second.atol;
      rtol = t->second.rtol;
      r.tolerance += "; " + case_name + ": atol " + std::to_string(atol) + " rtol " + std::to_string(rtol) +
                     ", tighter than the manifest's: " + t->second.why;
    }
    const auto it = own.find(case_name);
    // An output of exact codes whose zeros are data (swizzled scale padding,
    // zero e2m1 codes) is exempt from the zero-count trust rules, as in the
    // oracle mode (OutputSpec::zeros_are_data).
    double zero_fraction = op->max_zero_fraction;
    const Tolerance* own_tol = nullptr;
    for (const OutputSpec& o : own_specs) {
      if (o.tensor != case_name) continue;
      own_tol = &o.tol;
      if (o.zeros_are_data) zero_fraction = kZerosAreData;
    }
    const Side s =
        Compare(got, want, it == own.end() ? nullptr : &it->second, own_tol, atol, rtol, zero_fraction, nonfinite_inputs);
    headroom = std::max(headroom, s.headroom);
    r.metrics[golden_name] = {{"n", s.n},           {"bad", s.bad},
                              {"max_abs", s.max_abs}, {"max_rel", s.max_rel},
                              {"headroom", s.headroom}, {"atol", atol},
                              {"rtol", rtol},         {"golden_outside_own_model", s.outside_model},
                              {"golden_vs_oracle_max_ulp", s.model_ulps}, {"format", std::string(oracle::Name(got.fmt))},
                              {"unjudged", s.trust.vacuous}};
    if (s.trust.vacuous > 0) {
      r.unjudged += s.trust.vacuous;
      r.partial += (r.partial.empty() ? "" : "; ") + UnjudgedNote(golden_name, s.trust);
    }
    std::snprintf(buf, sizeof buf,
                  "  %s (%s): %lld/%lld outside atol %g + rtol %g; max abs %.3g, max rel %.3g, headroom %.3g; "
                  "own model: upstream %lld/%lld outside our bound, max %.3g ulp from our oracle\n",
                  golden_name.c_str(), case_name.c_str(), static_cast<long long>(s.bad), static_cast<long long>(s.n),
                  atol, rtol, s.max_abs, s.max_rel, s.headroom, static_cast<long long>(s.outside_model),
                  static_cast<long long>(s.n), s.model_ulps);
    r.detail += buf;
    if (s.bad > 0 && r.status == Outcome::kPassed) {
      r.status = Outcome::kFailedIncorrect;
      r.reason = golden_name + ": " + std::to_string(s.bad) + " of " + std::to_string(s.n) +
                 (atol == *g.atol && rtol == *g.rtol ? " elements outside the manifest's tolerance"
                                                     : " elements outside its (tighter than the manifest's) tolerance") +
                 (s.nonfinite ? " (" + std::to_string(s.nonfinite) + " non-finite)" : "") + "; " + s.first_bad;
    }
    if (!s.mistrust.empty() && mistrust.empty()) mistrust = golden_name + ": " + s.mistrust;
  }
  if (!own_error.empty()) r.detail += "  own model unavailable: " + own_error + "\n";
  r.headroom = headroom;
  if (!tier_diff.empty()) {
    r.detail = "  judged: the " + r.isa + " tier's outputs\n" + r.detail;
    if (r.status == Outcome::kPassed || r.status == Outcome::kMistrusted) {
      r.status = Outcome::kFailedIncorrect;
      r.reason = tier_diff + " (both within the golden's tolerance: the tiers must agree bit for bit)";
    } else {
      r.reason = tier_diff + "; judged against the golden: " + r.reason;
    }
  }
  if (r.status == Outcome::kPassed && !mistrust.empty()) {
    r.status = Outcome::kMistrusted;
    r.reason = mistrust + " (under the manifest's atol " + std::to_string(*g.atol) + ", rtol " +
               std::to_string(*g.rtol) + ")";
  }
  return r;
}

}  // namespace

namespace {

// A verdict is one line of valid UTF-8 whatever the folder held: a parse
// error quotes the bytes it stopped at, and a folder name may hold anything;
// reports (JSON) refuse invalid UTF-8 and a newline would split the line.
std::string OneLine(const std::string& s) {
  // nlohmann's own UTF-8 check (the one a report's dump() applies): invalid
  // sequences become U+FFFD.
  const std::string quoted = nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out = nlohmann::json::parse(quoted).get<std::string>();
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return out;
}

CaseResult CheckGoldenDirRaw(const std::string& dir, const RunConfig& cfg) {
  CaseResult r;
  r.id = dir;
  r.op = "?";
  r.mode = "golden";
  r.tier = cfg.tier;
  // One bad case never stops the others: whatever escapes the checks above
  // (an allocation failure, a filesystem error) is this case's FAILED.
  try {
    return CheckLoaded(dir, cfg, r);
  } catch (const std::exception& e) {
    r.status = Outcome::kFailedError;
    r.reason = std::string("refused: ") + dir + ": " + e.what();
    return r;
  }
}

}  // namespace

CaseResult CheckGoldenDir(const std::string& dir, const RunConfig& cfg) {
  CaseResult r = CheckGoldenDirRaw(dir, cfg);
  r.reason = OneLine(r.reason);
  r.op = OneLine(r.op);
  r.id = OneLine(r.id);
  return r;
}


}  // namespace vt::conform
