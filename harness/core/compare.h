// Output comparison: per-element acceptance intervals from a Tolerance, the
// metrics every report carries (byte equality, max abs / rel / ulp error in the
// output format, NMSE, headroom = worst error / allowed) and the trust checks
// (a reference that is all zero, all NaN or mostly zero, or a tolerance that
// admits zero for many elements, cannot vouch for a kernel: MISTRUSTED).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/core/case.h"
#include "harness/core/result.h"
#include "harness/core/tolerance.h"
#include "oracles/format.h"

namespace vt::conform {

// The oracle's answer for one output, in logical row-major order.
struct Expected {
  std::vector<double> v;  // value (before the output's own rounding)
  std::vector<double> e;  // bound on the kernel's deviation from v (Bounded oracle)
  double baseline_err = 0.0;  // max |oracle<float> - oracle<double>| (baseline rule)
  // The definition evaluated in f32 (oracle<float>), when the op has one. An
  // element whose bound e is not finite (a special value reached it, or an
  // f32 overflow / sign is uncertain) is held to equality with it instead:
  // the bound there vouches for nothing, and the f32 definition is what the
  // kernel must produce (docs/tolerance.md, "Non-finite bounds").
  std::vector<double> f32;
  // Elements the op's definition fixes exactly, whatever the arithmetic: a
  // state slot it must not write (its input bytes), a NULL request's zero row.
  // Their e is not finite (held to f32 above), yet unlike a special value's
  // they are no approximation: a second reference (the torch mode) is held to
  // them by equality as well. Empty: none.
  std::vector<bool> exact;
};

// The baseline rule's Expected: the double truth, and the largest deviation
// of the same-precision oracle (oracle<float>, stored to the output format)
// from it.
Expected BaselineExpected(const std::vector<double>& truth, const std::vector<double>& same_precision,
                          oracle::Fmt fmt);

struct ElementError {
  int64_t index = 0;
  std::vector<int64_t> coord;
  double expected = 0, got = 0, lo = 0, hi = 0;
  double abs_err = 0, rel_err = 0, ulp_err = 0;
};

struct Metrics {
  int64_t n = 0;
  int64_t bad = 0;
  bool bytes_equal = true;  // got's bytes == the oracle value encoded in the dtype
  double max_abs = 0, max_rel = 0, max_ulp = 0, nmse = 0;
  double headroom = 0;      // max over elements of |got - v| / allowed (pass <= 1)
  int64_t worst = -1;       // element with the largest headroom
  double worst_expected = 0, worst_got = 0;
  int64_t zeros = 0, nans = 0, vacuous = 0;
  int64_t nonzero = 0;  // finite, nonzero reference elements (vacuous: those not judged)
};

struct OutputCheck {
  std::string name;
  oracle::Fmt fmt = oracle::Fmt::kF32;
  Tolerance tol;
  Metrics m;
  std::vector<ElementError> first_bad;  // at most kMaxReported
  std::string mistrust;                 // non-empty: why the reference cannot be trusted
  bool passed() const { return m.bad == 0 && mistrust.empty(); }
  // Elements the tolerance could not judge (a partial verdict): 0 or the note.
  int64_t unjudged() const { return m.vacuous; }
  std::string UnjudgedLine() const;
};

inline constexpr int kMaxReported = 8;

// The trust rule, shared by the oracle and golden modes: counts over the
// reference values and why they cannot vouch for a result ("" when they can).
struct TrustCounts {
  int64_t n = 0, nans = 0, zeros = 0;
  int64_t nonzero = 0;  // finite, nonzero reference elements
  int64_t vacuous = 0;  // of those, how many have a tolerance wider than the signal
  // An input holds a NaN or an infinity (special values): NaN outputs are
  // then what the spec's propagation makes, and an all-NaN reference is a
  // full check of where the NaNs go (AnyInputNonFinite).
  bool nonfinite_inputs = false;
};
// An element's acceptance half-width says nothing when it is wider than both
// the value itself and 1% of the reference's RMS (or is not finite): the
// element is NOT JUDGED. It is still held to the tolerance (a value outside
// it fails), but passing it vouches for nothing.
bool VacuousTolerance(double half_width, double v, double rms);
// Partial verdicts: a case is judged on the elements its tolerance can judge
// and reports how many it could not (TrustCounts::vacuous, "unjudged" in every
// report). It is MISTRUSTED only when too little is left: fewer than
// kMinJudgedFraction of the nonzero reference elements judged, unless at
// least kEnoughJudged are (docs/tolerance.md, "Partial verdicts").
inline constexpr double kMinJudgedFraction = 0.1;
inline constexpr int64_t kEnoughJudged = 1000;
bool TooLittleJudged(const TrustCounts& t);
// "out: 12 of 4096 nonzero elements not judged (...)", or "" when every
// nonzero element was judged.
std::string UnjudgedNote(const std::string& output, const TrustCounts& t);
// A max_zero_fraction above 1 (this value) turns the zero-count rules off: the
// output holds exact codes whose zeros are data (OutputSpec::zeros_are_data).
inline constexpr double kZerosAreData = 2.0;
// MISTRUSTED (with the reason) or "": an all-NaN reference where no input is
// non-finite; an all-zero one (unless zeros are data); more zeros than
// max_zero_fraction only when the nonzero elements left are too few to judge
// (TooFewNonzero); too little judged (TooLittleJudged). docs/tolerance.md.
std::string MistrustReason(const TrustCounts& t, double max_zero_fraction);
// Fewer than kMinJudgedFraction of the elements nonzero and fewer than
// kEnoughJudged of them: the partial-verdict threshold, applied to zeros.
bool TooFewNonzero(const TrustCounts& t);

// A MISTRUSTED verdict that is the draw's, not the tolerance's: the
// reference is all zero, mostly zero or all NaN, so no reference can judge
// this case (a random draw makes them now and then: matmul_nvfp4_fp4 with one
// output whose fp4 products are all zero; matmul with M = K = 1 and its one
// activation element +-0). vt-fuzz, vt-golden and vt-conform count such a
// draw SKIPPED with the reason; a tolerance wider than the signal stays a
// failure. vt-conform fails an op and mode where such draws are common
// (reports::LostSignal, reports/summarize.h): that is a lost signal.
bool UnjudgeableDraw(const std::string& mistrust_reason);
// Whether an input operand of `c` holds a NaN or an infinity.
bool AnyInputNonFinite(const Case& c);

OutputCheck CheckOutput(const TensorData& got, const Expected& want, const Tolerance& tol,
                        double max_zero_fraction, bool nonfinite_inputs = false);

// Adds an output's unjudged elements to a case's partial-verdict count and note.
void AddUnjudged(CaseResult& r, const OutputCheck& c);

// Human-readable failure lines: the first bad elements and a summary line.
std::string FormatCheck(const OutputCheck& c);

}  // namespace vt::conform
