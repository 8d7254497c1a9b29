// oracle mode: run the kernel once (at the configured thread count) and hold
// every output and in-place operand to the Bounded oracle under the output's
// tolerance rule. Also: inputs must come back unchanged, guards and strided
// gaps intact, and the reference must be trustworthy (MISTRUSTED otherwise).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

#include "harness/catalog/claims.h"
#include "harness/modes/mode.h"
#include "vt/error.h"

namespace vt::conform {
namespace {

class OracleMode : public Mode {
 public:
  std::string_view name() const override { return "oracle"; }
  bool Covers(const OpSpec& op) const override { return op.oracle != nullptr && op.outputs != nullptr; }

  std::vector<CaseRef> Enumerate(const OpSpec& op, const RunConfig& cfg) const override {
    return TierRefs(op, cfg, name());
  }

  CaseResult Check(const OpSpec& op, const CaseRef& ref, const RunConfig& cfg) const override {
    CaseResult r = StartResult(op, name(), ref, cfg);
    const Case c = MakeCase(op, ref.params);
    vt::ExecContext ctx;
    ctx.threads = cfg.threads;
    Execution run;
    try {
      run = Execute(op, c, ctx);
    } catch (const std::exception& e) {
      r.status = Outcome::kFailedError;
      r.reason = std::string("refused or failed on a valid case: ") + e.what();
      return r;
    }
    if (!run.guard_error.empty()) {
      r.status = Outcome::kFailedError;
      r.reason = "wrote outside its operands: " + run.guard_error;
      return r;
    }
    for (const TensorData& t : c.tensors) {
      if (t.role != Role::kInput) continue;
      const std::string d = DiffBytes(t, run.after.Get(t.name));
      if (!d.empty()) {
        r.status = Outcome::kFailedError;
        r.reason = "modified its input " + t.name + ": " + d;
        return r;
      }
    }
    OracleResult want = op.oracle_given ? op.oracle_given(c, run.after) : op.oracle(c);
    if (op.oracle_f32) {
      for (auto& [name, values] : op.oracle_f32(c)) {
        if (want.count(name) != 0) want[name].f32 = std::move(values);
      }
    }
    // The sharpest check, on every case: bytes == the definition in f32 in
    // the spec's order (a byte comparison, cheap next to the Bounded oracle).
    // It sees one-ulp slips no tolerance can, and special values exactly.
    const std::string f32_diff = op.oracle_f32 ? F32DefinitionDiff(op, c, run.after) : "";
    // Where it holds, every output element is judged exactly - those whose
    // bound is wider than their value too: they are not unjudged, and a case
    // made of them (gelu of values where 1 + tanh cancels; vt-fuzz, values =
    // edges, T = 2, D = 1) is not MISTRUSTED. The zero and NaN rules stand.
    const bool all_by_definition = op.oracle_f32 && f32_diff.empty();
    double headroom = 0.0;
    bool bad = false;
    std::string mistrust;
    // Outputs compared byte for byte with the oracle's bytes: there a NaN
    // carries its payload, so an all-NaN reference (a one-element move of a
    // NaN under fill=bits) is still a full check, not a lost signal.
    const std::vector<TensorData> want_bytes = op.oracle_bytes ? op.oracle_bytes(c) : std::vector<TensorData>();
    std::set<std::string> byte_checked;
    for (const TensorData& t : want_bytes) byte_checked.insert(t.name);
    const bool nonfinite_inputs = AnyInputNonFinite(c);
    for (const OutputSpec& os : op.outputs(c)) {
      // A byte-compared output judges every element exactly, zeros too (their
      // sign bit included): its zeros are data, as zeros_are_data says for
      // exact codes (vt-fuzz soak: a 3-element f16 scatter under fill=bits
      // with 2 zeros and a NaN was MISTRUSTED "mostly zero").
      const bool exact_zeros = os.zeros_are_data || byte_checked.count(os.tensor) > 0;
      const double zero_fraction = exact_zeros ? kZerosAreData : op.max_zero_fraction;
      OutputCheck chk = CheckOutput(run.after.Get(os.tensor), want.at(os.tensor), os.tol, zero_fraction, nonfinite_inputs);
      // An all-NaN reference on a byte-compared output is a full check (the
      // payloads), not a lost signal: no mistrust, reported or counted.
      int64_t by_definition = 0;
      if (all_by_definition && chk.m.vacuous > 0) {
        by_definition = chk.m.vacuous;
        chk.m.vacuous = 0;
        chk.mistrust = MistrustReason({chk.m.n, chk.m.nans, chk.m.zeros, chk.m.nonzero, 0, nonfinite_inputs},
                                      zero_fraction);
      }
      if (byte_checked.count(os.tensor) > 0 && chk.m.n > 0 && chk.m.nans == chk.m.n) chk.mistrust.clear();
      headroom = std::max(headroom, chk.m.headroom);
      r.tolerance += (r.tolerance.empty() ? "" : "; ") + os.tensor + ": " + os.tol.Describe() + " (" + os.tol.reason + ")";
      r.metrics[os.tensor] = {{"n", chk.m.n},
                              {"bad", chk.m.bad},
                              {"bytes_equal", chk.m.bytes_equal},
                              {"max_abs", chk.m.max_abs},
                              {"max_rel", chk.m.max_rel},
                              {"max_ulp", chk.m.max_ulp},
                              {"nmse", chk.m.nmse},
                              {"headroom", chk.m.headroom},
                              {"format", std::string(oracle::Name(chk.fmt))},
                              {"tolerance", os.tol.Describe()},
                              {"unjudged", chk.unjudged()},
                              {"judged_by_f32_definition_only", by_definition}};
      AddUnjudged(r, chk);
      if (chk.m.bad > 0 || !chk.mistrust.empty()) r.detail += FormatCheck(chk);
      if (chk.m.bad > 0 && !bad) {
        bad = true;
        r.reason = os.tensor + ": " + std::to_string(chk.m.bad) + " of " + std::to_string(chk.m.n) +
                   " elements outside " + os.tol.Describe();
      }
      if (!chk.mistrust.empty() && mistrust.empty()) mistrust = os.tensor + ": " + chk.mistrust;
    }
    r.headroom = headroom;
    if (!f32_diff.empty() && !bad) {
      bad = true;
      r.reason = "f32_definition: " + f32_diff;
    }
    if (op.oracle_f32) r.tolerance += "; f32_definition: bytes equal";
    if (op.oracle_bytes) {
      for (const TensorData& wb : want_bytes) {
        const std::string d = DiffBytes(run.after.Get(wb.name), wb);
        if (!d.empty() && !bad) {
          bad = true;
          r.reason = "exact bytes (NaN payloads included): " + d;
        }
      }
      r.tolerance += "; bytes equal to the oracle's, NaN payloads included";
    }
    if (bad) {
      r.status = Outcome::kFailedIncorrect;
    } else if (!mistrust.empty()) {
      r.status = Outcome::kMistrusted;
      r.reason = mistrust;
    }
    return r;
  }
};

}  // namespace

std::unique_ptr<Mode> MakeOracleMode() { return std::make_unique<OracleMode>(); }

}  // namespace vt::conform
