#include "harness/core/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace vt::conform {
namespace {

struct Interval {
  double lo, hi;
};

Interval Accept(const Tolerance& tol, oracle::Fmt fmt, double v, double e, double baseline) {
  switch (tol.kind) {
    case Tolerance::Kind::kExact: {
      const double r = oracle::RoundReal(fmt, v);
      return {r, r};
    }
    case Tolerance::Kind::kBound:
      return {oracle::RoundReal(fmt, v - e), oracle::RoundReal(fmt, v + e)};
    case Tolerance::Kind::kUlp: {
      const double a = tol.ulps * oracle::UlpOf(fmt, v);
      return {v - a, v + a};
    }
    case Tolerance::Kind::kBaseline: {
      // Rounded outward to the output format like a bound: a kernel value
      // within a of v stores to a value within [R(v-a), R(v+a)], so a
      // baseline measured before the output's own rounding stays sound for
      // bf16/f16 outputs without widening to a whole ulp at the largest
      // magnitude (for f32 the representable values admitted are unchanged).
      const double a = tol.c * baseline + tol.floor;
      return {oracle::RoundReal(fmt, v - a), oracle::RoundReal(fmt, v + a)};
    }
    case Tolerance::Kind::kGolden: {
      const double a = tol.atol + tol.rtol * std::fabs(v);
      return {v - a, v + a};
    }
  }
  return {v, v};
}

std::vector<int64_t> Coord(const std::vector<int64_t>& shape, int64_t k) {
  std::vector<int64_t> c(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    const int64_t ext = std::max<int64_t>(shape[d], 1);
    c[d] = k % ext;
    k /= ext;
  }
  return c;
}

bool SameValue(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

}  // namespace

Expected BaselineExpected(const std::vector<double>& truth, const std::vector<double>& same_precision,
                          oracle::Fmt fmt) {
  Expected e;
  e.v = truth;
  for (std::size_t k = 0; k < truth.size() && k < same_precision.size(); ++k) {
    const double d = std::fabs(oracle::RoundReal(fmt, same_precision[k]) - truth[k]);
    if (std::isfinite(d)) e.baseline_err = std::max(e.baseline_err, d);
  }
  return e;
}

bool VacuousTolerance(double half, double v, double rms) {
  return !std::isfinite(half) || (half > std::fabs(v) && half > 0.01 * rms);
}

std::string MistrustReason(const TrustCounts& t, double max_zero_fraction) {
  // All NaN with finite inputs: the oracle lost the signal. With a NaN or an
  // infinity among the inputs it is what propagation makes, and the
  // comparison still checks every element is NaN (vt-fuzz finding: a
  // batched_matmul whose one broadcast row of a held a NaN).
  if (t.n > 0 && t.nans == t.n && !t.nonfinite_inputs) return "the reference is all NaN and no input is";
  if (t.n > 0 && t.zeros == t.n && max_zero_fraction <= 1.0) return "the reference is all zero";
  // Zeros are judged (the kernel must write about zero there); what a
  // mostly-zero reference loses is the nonzero sample a wrong value shows in.
  // So the partial-verdict threshold decides, not the fraction alone: small
  // valid cases (fp4 products that quantize to zero, padded conv rows) are
  // judged on the nonzero elements they have (vt-fuzz findings, issue 21).
  if (static_cast<double>(t.zeros) > max_zero_fraction * static_cast<double>(t.n) && TooFewNonzero(t)) {
    return "the reference is mostly zero (" + std::to_string(t.zeros) + " of " + std::to_string(t.n) +
           " elements; fewer than " + std::to_string(static_cast<int>(kMinJudgedFraction * 100)) +
           "% and fewer than " + std::to_string(kEnoughJudged) + " nonzero left to judge)";
  }
  if (TooLittleJudged(t)) {
    return "the tolerance is wider than the signal for " + std::to_string(t.vacuous) + " of " +
           std::to_string(t.nonzero) + " nonzero reference elements: too few left to judge (fewer than " +
           std::to_string(static_cast<int>(kMinJudgedFraction * 100)) + "% and fewer than " +
           std::to_string(kEnoughJudged) + ")";
  }
  return "";
}

bool UnjudgeableDraw(const std::string& reason) {
  return reason.find("the reference is all zero") != std::string::npos ||
         reason.find("mostly zero") != std::string::npos || reason.find("all NaN") != std::string::npos;
}

bool TooFewNonzero(const TrustCounts& t) {
  return static_cast<double>(t.nonzero) < kMinJudgedFraction * static_cast<double>(t.n) && t.nonzero < kEnoughJudged;
}

bool AnyInputNonFinite(const Case& c) {
  for (const TensorData& t : c.tensors) {
    if (t.role == Role::kOutput) continue;  // an in-place operand's values are inputs too
    for (const double v : t.Values()) {
      if (!std::isfinite(v)) return true;
    }
  }
  return false;
}

bool TooLittleJudged(const TrustCounts& t) {
  if (t.nonzero <= 0 || t.vacuous <= 0) return false;
  const int64_t judged = t.nonzero - t.vacuous;
  // A judged sample of a tenth of the output, or of a thousand elements,
  // still sees any slip that is not confined to the small values the
  // tolerance cannot resolve; below both, the case says more about the
  // tolerance than about the kernel.
  return static_cast<double>(judged) < kMinJudgedFraction * static_cast<double>(t.nonzero) &&
         judged < kEnoughJudged;
}

std::string UnjudgedNote(const std::string& output, const TrustCounts& t) {
  if (t.vacuous <= 0) return "";
  return output + ": " + std::to_string(t.vacuous) + " of " + std::to_string(t.nonzero) +
         " nonzero elements not judged (the tolerance is wider than the value and 1% of the RMS there)";
}

OutputCheck CheckOutput(const TensorData& got_t, const Expected& want, const Tolerance& tol,
                        double max_zero_fraction, bool nonfinite_inputs) {
  OutputCheck c;
  c.name = got_t.name;
  c.fmt = got_t.fmt;
  c.tol = tol;
  const std::vector<double> got = got_t.Values();
  const bool integral = got_t.dtype == vt::DType::kI8 || got_t.dtype == vt::DType::kI32 ||
                        got_t.dtype == vt::DType::kI64 ||
                        (got_t.dtype == vt::DType::kU8 && got_t.fmt == oracle::Fmt::kF32);
  Metrics& m = c.m;
  m.n = static_cast<int64_t>(got.size());
  if (want.v.size() != got.size()) {
    c.mistrust = "oracle produced " + std::to_string(want.v.size()) + " values for " +
                 std::to_string(got.size()) + " elements";
    return c;
  }
  double err2 = 0, ref2 = 0;
  const std::vector<uint8_t> bytes = got_t.LogicalBytes();
  const std::size_t es = vt::SizeOf(got_t.dtype);
  std::vector<uint8_t> enc(es);
  int64_t nonzero = 0;
  // The scale of the signal: an element's tolerance is "vacuous" when it is
  // wider than both its own value and 1% of the output's RMS. Near-zero
  // elements (cancellation) may legitimately carry a bound above their value;
  // a bound comparable to the signal itself cannot vouch for anything.
  double sum_sq = 0.0;
  int64_t finite = 0;
  for (double v : want.v) {
    if (std::isfinite(v)) {
      sum_sq += v * v;
      ++finite;
    }
  }
  const double rms = finite > 0 ? std::sqrt(sum_sq / static_cast<double>(finite)) : 0.0;
  for (int64_t k = 0; k < m.n; ++k) {
    const double v = want.v[static_cast<std::size_t>(k)];
    const double e = want.e.empty() ? 0.0 : want.e[static_cast<std::size_t>(k)];
    const double g = got[static_cast<std::size_t>(k)];
    EncodeElement(got_t.dtype, got_t.fmt, oracle::RoundReal(c.fmt, v), enc.data());
    if (!std::equal(enc.begin(), enc.end(), bytes.begin() + k * static_cast<int64_t>(es))) m.bytes_equal = false;
    if (std::isnan(v)) ++m.nans;
    if (oracle::RoundReal(c.fmt, v) == 0.0) ++m.zeros;
    // Judged by equality with the f32 definition (Expected::f32): exact, so
    // neither a bound nor "vacuous".
    const bool by_definition = !std::isfinite(e) && !want.f32.empty();
    const double def = by_definition ? oracle::RoundReal(c.fmt, want.f32[static_cast<std::size_t>(k)]) : 0.0;
    Interval a = by_definition ? Interval{def, def} : Accept(tol, c.fmt, v, e, want.baseline_err);
    // Integer outputs (i8/i32/i64, raw u8) hold their values exactly: the
    // exact rule is equality, not equality after rounding to f32 (an i32
    // above 2^24 is not an f32).
    if (integral && tol.kind == Tolerance::Kind::kExact) a = {v, v};
    if (v != 0.0 && std::isfinite(v)) {  // an exact +-inf expectation is not "vacuous"
      ++nonzero;
      if (!by_definition && VacuousTolerance(0.5 * (a.hi - a.lo), v, rms)) ++m.vacuous;
    }
    bool ok;
    if (by_definition) {
      ok = SameValue(g, def);  // NaN matches NaN; +-0 match (the byte check sees the sign)
    } else if (std::isnan(v) || std::isinf(v) || std::isnan(g) || std::isinf(g)) {
      ok = SameValue(g, oracle::RoundReal(c.fmt, v)) || (!std::isnan(g) && g >= a.lo && g <= a.hi);
    } else {
      ok = g >= a.lo && g <= a.hi;
    }
    const double abs_err = SameValue(g, v) ? 0.0 : std::fabs(g - v);
    const double rel_err = v != 0.0 ? abs_err / std::fabs(v) : (abs_err == 0.0 ? 0.0 : INFINITY);
    const double ulp_err = abs_err / oracle::UlpOf(c.fmt, v);
    // Headroom: error / what the rule allows. For exact/bound rules the final
    // rounding to the output format is part of the allowance (half an ulp),
    // so a correctly rounded result reads < 1 rather than exactly 1.
    const bool rounded_rule = tol.kind == Tolerance::Kind::kExact || tol.kind == Tolerance::Kind::kBound;
    const double allowed = rounded_rule ? e + 0.5 * oracle::UlpOf(c.fmt, v)
                                        : (g >= v ? a.hi - v : v - a.lo);
    double ratio = abs_err == 0.0 ? 0.0 : (allowed > 0.0 ? abs_err / allowed : INFINITY);
    if (!ok) ratio = std::isfinite(ratio) ? std::max(ratio, 1.0 + 1e-9) : INFINITY;  // a failure reads > 1
    if (std::isfinite(v) && std::isfinite(g)) {
      err2 += (g - v) * (g - v);
      ref2 += v * v;
      m.max_abs = std::max(m.max_abs, abs_err);
      m.max_rel = std::max(m.max_rel, rel_err);
      m.max_ulp = std::max(m.max_ulp, ulp_err);
    }
    if (m.worst < 0 || ratio > m.headroom) {
      m.headroom = ratio;
      m.worst = k;
      m.worst_expected = v;
      m.worst_got = g;
    }
    if (!ok) {
      ++m.bad;
      if (static_cast<int>(c.first_bad.size()) < kMaxReported) {
        c.first_bad.push_back({k, Coord(got_t.shape, k), v, g, a.lo, a.hi, abs_err, rel_err, ulp_err});
      }
    }
  }
  m.nonzero = nonzero;
  m.nmse = ref2 > 0 ? err2 / ref2 : (err2 > 0 ? INFINITY : 0.0);
  if (m.n > 0) c.mistrust = MistrustReason({m.n, m.nans, m.zeros, nonzero, m.vacuous, nonfinite_inputs}, max_zero_fraction);
  return c;
}

std::string OutputCheck::UnjudgedLine() const {
  return UnjudgedNote(name, {m.n, m.nans, m.zeros, m.nonzero, m.vacuous});
}

void AddUnjudged(CaseResult& r, const OutputCheck& c) {
  if (c.unjudged() <= 0) return;
  r.unjudged += c.unjudged();
  r.partial += (r.partial.empty() ? "" : "; ") + c.UnjudgedLine();
}

std::string FormatCheck(const OutputCheck& c) {
  std::ostringstream os;
  char buf[512];
  for (const ElementError& b : c.first_bad) {
    std::string coord = "[";
    for (std::size_t d = 0; d < b.coord.size(); ++d) coord += (d ? "," : "") + std::to_string(b.coord[d]);
    coord += "]";
    std::snprintf(buf, sizeof buf,
                  "  %s%s (flat %lld): expected %.9g, got %.9g, allowed [%.9g, %.9g]; abs %.3g rel %.3g ulp %.3g\n",
                  c.name.c_str(), coord.c_str(), static_cast<long long>(b.index), b.expected, b.got,
                  b.lo, b.hi, b.abs_err, b.rel_err, b.ulp_err);
    os << buf;
  }
  std::snprintf(buf, sizeof buf,
                "  %s: %lld/%lld bad under %s [%s]; max abs %.3g, max rel %.3g, max ulp %.3g (%s), nmse %.3g, headroom %.3g%s\n",
                c.name.c_str(), static_cast<long long>(c.m.bad), static_cast<long long>(c.m.n),
                c.tol.Describe().c_str(), c.tol.reason.c_str(), c.m.max_abs, c.m.max_rel, c.m.max_ulp,
                std::string(oracle::Name(c.fmt)).c_str(), c.m.nmse, c.m.headroom,
                c.m.bytes_equal ? ", bytes equal to the rounded oracle" : "");
  os << buf;
  if (!c.mistrust.empty()) os << "  " << c.name << ": MISTRUSTED: " << c.mistrust << "\n";
  return os.str();
}

}  // namespace vt::conform
