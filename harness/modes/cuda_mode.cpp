// cuda mode: the op's CUDA kernel (backend cuda on a device, or cuda-emu: the
// same .cu source on the host under the SIMT emulation; RunConfig::
// cuda_backend) on the op's generated tier cases, through the same workspace
// as a CPU run (guard bytes, NaN-filled gaps, in-place operands) copied to the
// backend's memory and back. Per case:
//   - guards / gaps intact, inputs unchanged;
//   - every output within its catalog tolerance of the Bounded oracle (the
//     CPU rule: the CUDA kernels are built to meet it, docs/cuda.md);
//   - vs the CPU kernel: every output byte-identical (NaN payloads aside)
//     unless the op's CUDA kernel is listed in cuda_bytes.cpp with the reason
//     its bytes may differ (then exact outputs only; the largest difference
//     of the others is recorded);
//   - run-to-run: the case again (cuda-emu: under another thread order) must
//     give identical bytes in every operand - every CUDA kernel here claims
//     determinism (fixed reduction trees, no atomics).
// One more case per op hands one operand over on the wrong device: the
// shared validation must refuse it before any byte changes.
// The f32_definition byte check of the oracle mode is not applied: it fixes
// the CPU's sequential order, which a block reduction does not follow.
#include <algorithm>
#include <cmath>

#include "harness/catalog/claims.h"
#include "harness/modes/cuda_bytes.h"
#include "harness/modes/mode.h"
#include "vt/device.h"
#include "vt/error.h"
#include "vt/registry.h"

namespace vt::conform {
namespace {

constexpr const char* kWrongDevice = "wrong_device";
constexpr uint64_t kSecondOrder = 0x0D1FFE2E17ull;  // the determinism run's schedule seed salt

bool Written(const TensorData& t) { return t.role != Role::kInput; }

class CudaMode : public Mode {
 public:
  std::string_view name() const override { return "cuda"; }
  bool Covers(const OpSpec& op) const override {
    return op.run != nullptr && op.oracle != nullptr && op.outputs != nullptr &&
           (vt::HasKernel(op.name, vt::Backend::kCudaEmu) || vt::HasKernel(op.name, vt::Backend::kCUDA));
  }

  std::vector<CaseRef> Enumerate(const OpSpec& op, const RunConfig& cfg) const override {
    const std::string why = vt::BackendUnavailable(cfg.cuda_backend);
    if (!why.empty()) {
      CaseRef r{op.name + "(backend=" + std::string(vt::Name(cfg.cuda_backend)) + ")", Params(op.name), "",
                why.rfind("no device", 0) == 0 ? why : "no device: " + why};
      return {r};
    }
    if (!vt::HasKernel(op.name, cfg.cuda_backend)) {
      return {CaseRef{op.name + "(backend=" + std::string(vt::Name(cfg.cuda_backend)) + ")", Params(op.name), "",
                      "no kernel registered for backend " + std::string(vt::Name(cfg.cuda_backend))}};
    }
    std::vector<CaseRef> refs = TierRefs(op, cfg, name());
    if (!refs.empty()) {
      CaseRef wrong = refs.front();
      wrong.id += std::string("!") + kWrongDevice;
      wrong.variant = kWrongDevice;
      refs.push_back(wrong);
    }
    return refs;
  }

  CaseRef Parse(const OpSpec& op, const std::string& id) const override {
    const std::string suffix = std::string("!") + kWrongDevice;
    if (id.size() > suffix.size() && id.compare(id.size() - suffix.size(), suffix.size(), suffix) == 0) {
      CaseRef r = Mode::Parse(op, id.substr(0, id.size() - suffix.size()));
      r.id = id;
      r.variant = kWrongDevice;
      return r;
    }
    return Mode::Parse(op, id);
  }

  CaseResult Check(const OpSpec& op, const CaseRef& ref, const RunConfig& cfg) const override {
    CaseResult r = StartResult(op, name(), ref, cfg);
    if (!ref.note.empty()) {
      r.status = Outcome::kSkipped;
      r.reason = ref.note;
      return r;
    }
    const vt::ExecContext ctx{cfg.cuda_backend, 1, false};
    const Case c = MakeCase(op, ref.params);
    if (ref.variant == kWrongDevice) return WrongDevice(op, c, ctx, r);
    Execution run;
    try {
      vt::SetEmuScheduleSeed(ref.params.seed);
      run = Execute(op, c, ctx);
    } catch (const std::exception& e) {
      r.status = Outcome::kFailedError;
      r.reason = std::string("refused or failed on a valid case: ") + e.what();
      return r;
    }
    if (!run.guard_error.empty()) return Fail(r, Outcome::kFailedError, "wrote outside its operands: " + run.guard_error);
    for (const TensorData& t : c.tensors) {
      if (t.role != Role::kInput) continue;
      const std::string d = DiffBytes(t, run.after.Get(t.name));
      if (!d.empty()) return Fail(r, Outcome::kFailedError, "modified its input " + t.name + ": " + d);
    }
    if (!CheckOracle(op, c, run, r)) return r;
    if (!CheckVsCpu(op, c, ctx.backend, run, r)) return r;
    // Determinism: the same case again, under another thread order (cuda-emu).
    try {
      vt::SetEmuScheduleSeed(ref.params.seed ^ kSecondOrder);
      const Execution again = Execute(op, c, ctx);
      for (const TensorData& t : again.after.tensors) {
        if (!Written(t)) continue;
        if (t.storage != run.after.Get(t.name).storage) {
          const std::string d = DiffBytes(t, run.after.Get(t.name));
          return Fail(r, Outcome::kFailedIncorrect,
                      "run-to-run: " + t.name + " differs between two runs of the same case" +
                          (d.empty() ? " (in a gap)" : ": " + d));
        }
      }
    } catch (const std::exception& e) {
      return Fail(r, Outcome::kFailedError, std::string("second run failed: ") + e.what());
    }
    if (!CheckSmallLaunch(op, c, ctx, run, r)) return r;
    r.tolerance += std::string("; vs cpu: ") +
                   (CudaBytesOf(op.name).BytesEqualOn(ctx.backend)        ? "every output"
                    : CudaBytesOf(op.name).ExactBytesEqualOn(ctx.backend) ? "exact outputs"
                                                                          : "no output (device exp & co)") +
                   " byte-identical; run-to-run: byte-identical; small launch: "
                   "exact outputs byte-identical, the rest within tolerance";
    return r;
  }

 private:
  static CaseResult& Fail(CaseResult& r, Outcome o, std::string why) {
    r.status = o;
    r.reason = std::move(why);
    return r;
  }

  // The Bounded oracle's result with the f32 definition's values beside it
  // (where a kernel may follow the definition, e.g. to its NaN on an inf * 0).
  static OracleResult Want(const OpSpec& op, const Case& c, const Execution& run) {
    OracleResult want = op.oracle_given ? op.oracle_given(c, run.after) : op.oracle(c);
    if (op.oracle_f32) {
      for (auto& [tensor, values] : op.oracle_f32(c)) {
        if (want.count(tensor) != 0) want[tensor].f32 = std::move(values);
      }
    }
    return want;
  }

  // An element whose bound is not finite (a special value reached it, or its
  // f32 evaluation may overflow) is held to the f32 definition's value: the
  // CPU kernel follows the seed's order, so there that is exact. A twin's
  // order is its own (block reductions, its own association), so where the
  // definition's value and the twin's are both finite neither the bound nor
  // the definition can judge the element: it is counted not judged
  // (r.unjudged, r.partial), never hidden. NaN and infinities must still
  // match (SameValue), and elements the op fixes exactly stay held.
  // (rms_norm_gated at values near FLT_MAX, vt-conform --seed
  // 0x38d19934a01b2d44: 30 elements 0.04-1.1 ulp from the definition.)
  static int64_t OpenUnboundedFinite(Expected& want, const std::vector<double>& got) {
    int64_t open = 0;
    for (std::size_t k = 0; k < want.e.size() && k < got.size() && k < want.f32.size(); ++k) {
      if (std::isfinite(want.e[k]) || (k < want.exact.size() && want.exact[k])) continue;
      if (!std::isfinite(want.f32[k]) || !std::isfinite(got[k])) continue;
      want.f32[k] = got[k];
      ++open;
    }
    return open;
  }
  static void NoteOpen(CaseResult& r, const std::string& tensor, int64_t open) {
    if (open == 0) return;
    r.unjudged += open;
    r.partial += (r.partial.empty() ? "" : "; ") + tensor + ": " + std::to_string(open) +
                 " elements not judged (the oracle's bound is not finite there and the twin's order is not the "
                 "f32 definition's)";
  }

  // Every output within its catalog tolerance of the Bounded oracle.
  static bool CheckOracle(const OpSpec& op, const Case& c, const Execution& run, CaseResult& r) {
    OracleResult want = Want(op, c, run);
    double headroom = 0.0;
    std::string mistrust;
    const bool nonfinite_inputs = AnyInputNonFinite(c);
    for (const OutputSpec& os : op.outputs(c)) {
      const double zero_fraction = os.zeros_are_data ? kZerosAreData : op.max_zero_fraction;
      NoteOpen(r, os.tensor, OpenUnboundedFinite(want.at(os.tensor), run.after.Get(os.tensor).Values()));
      const OutputCheck chk =
          CheckOutput(run.after.Get(os.tensor), want.at(os.tensor), os.tol, zero_fraction, nonfinite_inputs);
      headroom = std::max(headroom, chk.m.headroom);
      r.tolerance += (r.tolerance.empty() ? "" : "; ") + os.tensor + ": " + os.tol.Describe() + " (" + os.tol.reason + ")";
      r.metrics[os.tensor] = {{"n", chk.m.n},          {"bad", chk.m.bad},         {"bytes_equal", chk.m.bytes_equal},
                              {"max_abs", chk.m.max_abs}, {"max_ulp", chk.m.max_ulp}, {"headroom", chk.m.headroom},
                              {"format", std::string(oracle::Name(chk.fmt))},  // report.html plots per output dtype
                              {"unjudged", chk.unjudged()}};
      AddUnjudged(r, chk);
      if (chk.m.bad > 0) {
        r.detail += FormatCheck(chk);
        Fail(r, Outcome::kFailedIncorrect,
             os.tensor + ": " + std::to_string(chk.m.bad) + " of " + std::to_string(chk.m.n) + " elements outside " +
                 os.tol.Describe());
        return false;
      }
      if (!chk.mistrust.empty() && mistrust.empty()) mistrust = os.tensor + ": " + chk.mistrust;
    }
    r.headroom = headroom;
    if (!mistrust.empty()) {
      Fail(r, Outcome::kMistrusted, mistrust);
      return false;
    }
    return true;
  }

  // The case again under launch caps of 2 blocks of 32 threads, so that every
  // grid-stride and block-stride loop turns more than once on a small case (a
  // block owns a second row, a thread a second element); the shipped caps
  // (4096 row blocks, 1024 flat blocks) are never reached by a tier's cases.
  // Exact outputs must keep their bytes; the others (a block reduction's tree
  // changes with the thread count) stay within the op's tolerance.
  static bool CheckSmallLaunch(const OpSpec& op, const Case& c, const vt::ExecContext& ctx, const Execution& run,
                               CaseResult& r) {
    struct CapsGuard {
      vt::CudaLaunchCaps shipped = vt::GetCudaLaunchCaps();
      ~CapsGuard() { vt::SetCudaLaunchCaps(shipped); }
    } guard;
    Execution small;
    try {
      vt::SetCudaLaunchCaps(vt::CudaLaunchCaps{2, 2, 32});
      small = Execute(op, c, ctx);
    } catch (const std::exception& e) {
      Fail(r, Outcome::kFailedError, std::string("small launch: failed: ") + e.what());
      return false;
    }
    if (!small.guard_error.empty()) {
      Fail(r, Outcome::kFailedError, "small launch: wrote outside its operands: " + small.guard_error);
      return false;
    }
    OracleResult want = Want(op, c, small);
    const bool nonfinite_inputs = AnyInputNonFinite(c);
    for (const OutputSpec& os : op.outputs(c)) {
      const TensorData& got = small.after.Get(os.tensor);
      OpenUnboundedFinite(want.at(os.tensor), got.Values());  // counted once, by CheckOracle
      if (os.tol.kind == Tolerance::Kind::kExact) {
        const std::string d = DiffBytes(got, run.after.Get(os.tensor), /*any_nan=*/true);
        if (!d.empty()) {
          Fail(r, Outcome::kFailedIncorrect, "small launch: " + os.tensor + " (an exact output) differs: " + d);
          return false;
        }
        continue;
      }
      const double zero_fraction = os.zeros_are_data ? kZerosAreData : op.max_zero_fraction;
      const OutputCheck chk = CheckOutput(got, want.at(os.tensor), os.tol, zero_fraction, nonfinite_inputs);
      if (chk.m.bad > 0) {
        r.detail += FormatCheck(chk);
        Fail(r, Outcome::kFailedIncorrect,
             "small launch: " + os.tensor + ": " + std::to_string(chk.m.bad) + " of " + std::to_string(chk.m.n) +
                 " elements outside " + os.tol.Describe());
        return false;
      }
    }
    return true;
  }

  // CUDA vs the CPU kernel on the same case.
  // Every output byte-identical to the CPU kernel's where the CUDA kernel
  // keeps the CPU's order (cuda_bytes.h), exact outputs always.
  static bool CheckVsCpu(const OpSpec& op, const Case& c, vt::Backend backend, const Execution& run,
                         CaseResult& r) {
    const CudaBytes relation = CudaBytesOf(op.name);
    const bool all_bytes = relation.BytesEqualOn(backend);
    const bool exact_bytes = relation.ExactBytesEqualOn(backend);
    Execution cpu;
    try {
      cpu = Execute(op, c, vt::ExecContext{vt::Backend::kCPU, 1, false});
    } catch (const std::exception& e) {
      Fail(r, Outcome::kFailedError, std::string("the CPU kernel failed on the case: ") + e.what());
      return false;
    }
    for (const OutputSpec& os : op.outputs(c)) {
      const TensorData& got = run.after.Get(os.tensor);
      const TensorData& base = cpu.after.Get(os.tensor);
      if (all_bytes || (exact_bytes && os.tol.kind == Tolerance::Kind::kExact)) {
        const std::string d = DiffBytes(got, base, /*any_nan=*/true);
        if (!d.empty()) {
          Fail(r, Outcome::kFailedIncorrect,
               "vs cpu: " + os.tensor +
                   (all_bytes ? " differs from the CPU kernel's bytes (the CUDA kernel keeps the CPU's order: "
                                "harness/modes/cuda_bytes.cpp): "
                              : " (an exact output) differs: ") +
                   d);
          return false;
        }
        continue;
      }
      const std::vector<double> a = got.Values(), b = base.Values();
      double max_abs = 0.0;
      for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        if (std::isfinite(a[i]) && std::isfinite(b[i])) max_abs = std::max(max_abs, std::fabs(a[i] - b[i]));
      }
      r.metrics[os.tensor]["max_abs_vs_cpu"] = max_abs;
    }
    return true;
  }

  // One operand on the host while the others are on the device: refused by
  // the shared validation, nothing written.
  static CaseResult WrongDevice(const OpSpec& op, const Case& c, const vt::ExecContext& ctx, CaseResult& r) {
    Case moved = c;
    TensorData* victim = nullptr;
    for (TensorData& t : moved.tensors) {
      if (!t.null_data) {
        victim = &t;
        break;
      }
    }
    if (victim == nullptr) return Fail(r, Outcome::kSkipped, "the case has no operand to move");
    victim->device = vt::DeviceType::kCUDA;  // the "other" device: Workspace::ToDevice leaves it on the host
    Workspace ws(moved);
    ws.ToDevice(*vt::FindDeviceApi(ctx.backend));
    std::string refusal;
    try {
      op.run(ctx, ws);
    } catch (const vt::Error& e) {
      refusal = e.what();
    } catch (const std::exception& e) {
      ws.ToHost();
      return Fail(r, Outcome::kFailedError, std::string("failed with a non-vt error: ") + e.what());
    }
    ws.ToHost();
    if (refusal.empty()) return Fail(r, Outcome::kFailedIncorrect, victim->name + " on the host was accepted");
    if (refusal.find("device") == std::string::npos) {
      return Fail(r, Outcome::kFailedIncorrect, "refused, but not for the device: " + refusal);
    }
    const std::string changed = ws.CheckUnchanged();
    if (!changed.empty()) return Fail(r, Outcome::kFailedError, "refused after writing: " + changed);
    r.tolerance = "refused before any write: " + refusal;
    return r;
  }
};

}  // namespace

std::unique_ptr<Mode> MakeCudaMode() { return std::make_unique<CudaMode>(); }

}  // namespace vt::conform
