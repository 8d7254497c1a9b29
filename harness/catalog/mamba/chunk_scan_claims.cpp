#include "harness/catalog/mamba/chunk_scan_claims.h"

#include <algorithm>
#include <cmath>

#include "harness/catalog/claims.h"
#include "harness/catalog/mamba/chunk_metadata.h"
#include "harness/catalog/mamba/mamba_entry.h"
#include "harness/catalog/same_as.h"
#include "vt/ops.h"

namespace vt::conform::mamba {
namespace local_chunk_scan_claims {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

using V = std::vector<int64_t>;

Case Fresh(const Params& p, void (*build)(Case&)) {
  Case c;
  c.params = p;
  build(c);
  Materialize(c);
  return c;
}

// Every output of `got` (named as in the case) within the op's tolerance of
// the oracle of `ref`; "" or the first failure.
std::string WithinRule(const OpSpec& op, const Case& ref, const std::vector<TensorData>& got) {
  const OracleResult want = op.oracle(ref);
  for (const OutputSpec& o : op.outputs(ref)) {
    for (const TensorData& t : got) {
      if (t.name != o.tensor) continue;
      const OutputCheck chk = CheckOutput(t, want.at(o.tensor), o.tol, op.max_zero_fraction);
      if (!chk.passed()) return o.tensor + ": " + (chk.mistrust.empty() ? FormatCheck(chk) : chk.mistrust);
    }
  }
  return "";
}

std::vector<TensorData> Written(const Case& after) {
  std::vector<TensorData> v;
  for (const TensorData& t : after.tensors) {
    if (t.role != Role::kInput) v.push_back(t);
  }
  return v;
}

bool StateIsF32(const Params& p) { return p.Str("state") == "f32"; }

// dt as the chunk scan uses it (bias, softplus with its guard, clamp), in f32.
std::vector<float> EffectiveDt(const Case& c) {
  const vt::Mamba2Args a = Args(c.params);
  const std::vector<double> raw = c.Get("dt").Values();
  const int64_t H = c.Get("dt").shape[1];
  const TensorData* bias = c.Find("dt_bias");
  const std::vector<double> bv = bias != nullptr ? bias->Values() : std::vector<double>();
  std::vector<float> d(raw.size());
  for (std::size_t k = 0; k < raw.size(); ++k) {
    float v = static_cast<float>(raw[k]);
    if (!bv.empty()) v += static_cast<float>(bv[k % static_cast<std::size_t>(H)]);
    if (a.dt_softplus && v <= 20.0f) v = std::log1p(std::exp(v));
    d[k] = std::min(std::max(v, a.dt_min), a.dt_max);
  }
  return d;
}

std::vector<float> AsF32(const TensorData& t) {
  const std::vector<double> v = t.Values();
  return std::vector<float>(v.begin(), v.end());
}

vt::Tensor View(std::vector<float>& v, std::vector<int64_t> shape) {
  return vt::Tensor::Contiguous(v.data(), vt::DType::kF32, shape);
}

Claim IteratedStateUpdate() {
  Claim cl;
  cl.name = "iterated_state_update";
  cl.statement = "with an f32 state, mamba2_state_update applied to every token in turn (dt "
                 "pre-processed as the scan does) gives out and final_states within the scan's "
                 "baseline rule (a different algorithm: not bit for bit)";
  cl.applies = [](const Params& p) { return StateIsF32(p) && p.Str("D") != "hp"; };
  cl.check = [](const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
    const Execution run = Execute(op, c, ctx);
    if (!run.guard_error.empty()) return ClaimOutcome::Violated(run.guard_error);
    const std::string scan = WithinRule(op, c, Written(run.after));
    if (!scan.empty()) return ClaimOutcome::Violated("the scan itself: " + scan);

    const TensorData& xt = c.Get("x");
    const int64_t H = xt.shape[1], P = xt.shape[2], G = c.Get("B").shape[1], N = c.Get("B").shape[2];
    const V cu = seq::Ints(c.Get("cu_seqlens"));
    const int64_t S = static_cast<int64_t>(cu.size()) - 1, T = cu.back();
    const std::vector<float> x = AsF32(xt), B = AsF32(c.Get("B")), C = AsF32(c.Get("C")), dt = EffectiveDt(c);
    std::vector<float> A = AsF32(c.Get("A"));
    const TensorData* zt = c.Find("z");
    const std::vector<float> z = zt != nullptr ? AsF32(*zt) : std::vector<float>();
    std::vector<float> D = c.Find("D") != nullptr ? AsF32(c.Get("D")) : std::vector<float>();
    std::vector<float> state(static_cast<std::size_t>(S * H * P * N), 0.0f);
    if (c.Find("initial_states") != nullptr) state = AsF32(c.Get("initial_states"));
    std::vector<double> out(static_cast<std::size_t>(T * H * P), 0.0);

    std::vector<float> sx(static_cast<std::size_t>(S * H * P)), sdt(static_cast<std::size_t>(S * H));
    std::vector<float> sB(static_cast<std::size_t>(S * G * N)), sC(sB.size()), sz(sx.size()), sout(sx.size());
    std::vector<int32_t> slots(static_cast<std::size_t>(S));
    vt::Mamba2Args args;
    for (int64_t k = 0;; ++k) {
      bool any = false;
      for (int64_t b = 0; b < S; ++b) {
        const bool live = cu[b] + k < cu[b + 1];
        any = any || live;
        slots[static_cast<std::size_t>(b)] = live ? static_cast<int32_t>(b) : -1;
        const int64_t t = live ? cu[b] + k : 0;  // a NULL row's inputs are never read
        std::copy_n(x.begin() + t * H * P, H * P, sx.begin() + b * H * P);
        std::copy_n(dt.begin() + t * H, H, sdt.begin() + b * H);
        std::copy_n(B.begin() + t * G * N, G * N, sB.begin() + b * G * N);
        std::copy_n(C.begin() + t * G * N, G * N, sC.begin() + b * G * N);
        if (!z.empty()) std::copy_n(z.begin() + t * H * P, H * P, sz.begin() + b * H * P);
      }
      if (!any) break;
      const vt::Tensor zv = View(sz, {S, H, P});
      const vt::Tensor dv = D.empty() ? vt::Tensor() : View(D, {H});
      const vt::Tensor iv = vt::Tensor::Contiguous(slots.data(), vt::DType::kI32, {S});
      vt::Mamba2StateUpdate(ctx, View(sout, {S, H, P}), View(state, {S, H, P, N}), View(sx, {S, H, P}),
                            View(sdt, {S, H}), View(A, {H}), View(sB, {S, G, N}), View(sC, {S, G, N}),
                            D.empty() ? nullptr : &dv, z.empty() ? nullptr : &zv, nullptr, &iv, args);
      for (int64_t b = 0; b < S; ++b) {
        if (slots[static_cast<std::size_t>(b)] < 0) continue;
        std::copy_n(sout.begin() + b * H * P, H * P, out.begin() + (cu[b] + k) * H * P);
      }
    }
    const std::vector<TensorData> got = {
        TensorFromValues("out", c.Get("out").dtype, c.Get("out").shape, Role::kOutput, out),
        TensorFromValues("final_states", vt::DType::kF32, c.Get("final_states").shape, Role::kOutput,
                         std::vector<double>(state.begin(), state.end()))};
    const std::string d = WithinRule(op, c, got);
    return d.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated("iterated decode: " + d);
  };
  return cl;
}

Claim ChunkSizeFree(void (*build)(Case&)) {
  Claim cl;
  cl.name = "chunk_size_free";
  cl.statement = "with an f32 state the result does not depend on chunk_size: the case rerun "
                 "with another chunk size is within that chunking's rule of the same truth";
  cl.applies = [](const Params& p) { return StateIsF32(p); };
  cl.check = [build](const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
    const int64_t cs = c.params.Int("cs");
    for (const int64_t other : {cs * 2, cs > 1 ? cs / 2 : cs * 4}) {
      Params p = c.params;
      p.Set("cs", other);
      const Case alt = Fresh(p, build);
      const Execution run = Execute(op, alt, ctx);
      if (!run.guard_error.empty()) return ClaimOutcome::Violated(run.guard_error);
      // The rule of the chunking the kernel ran: its per-term part depends
      // on the chunks, and the truth on them only through the handovers'
      // rounding to the (f32) state dtype.
      const std::string d = WithinRule(op, alt, Written(run.after));
      if (!d.empty()) return ClaimOutcome::Violated("chunk_size " + std::to_string(other) + ": " + d);
    }
    return ClaimOutcome::Holds();
  };
  return cl;
}

// Rows [r0, r1) of a tensor's leading dim, as a contiguous tensor.
TensorData Rows(const TensorData& t, int64_t r0, int64_t r1) {
  const int64_t per = t.shape[0] == 0 ? 0 : t.Numel() / t.shape[0];
  const std::vector<double> v = t.Values();
  std::vector<int64_t> shape = t.shape;
  shape[0] = r1 - r0;
  return TensorFromValues(t.name, t.dtype, shape, t.role,
                          std::vector<double>(v.begin() + r0 * per, v.begin() + r1 * per));
}

Claim VarlenEqualsAlone() {
  Claim cl;
  cl.name = "varlen_equals_alone";
  cl.statement = "each sequence of a varlen batch run alone (its own chunks, its initial state) "
                 "gives the same bytes as its rows of the batch run";
  cl.applies = [](const Params& p) { return p.args.at("lens").size() >= 2; };
  cl.check = [](const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
    const Execution full = Execute(op, c, ctx);
    if (!full.guard_error.empty()) return ClaimOutcome::Violated(full.guard_error);
    const V cu = seq::Ints(c.Get("cu_seqlens")), ccs = seq::Ints(c.Get("cu_chunk_seqlens"));
    const int64_t S = static_cast<int64_t>(cu.size()) - 1;
    for (int64_t b = 0; b < S; ++b) {
      Case one = c;
      for (TensorData& t : one.tensors) {
        if (t.name == "x" || t.name == "dt" || t.name == "B" || t.name == "C" || t.name == "z" || t.name == "out") {
          t = Rows(t, cu[b], cu[b + 1]);
        } else if (t.name == "initial_states" || t.name == "final_states") {
          t = Rows(t, b, b + 1);
        }
      }
      V chunks;
      for (int64_t e : ccs) {
        if (e >= cu[b] && e <= cu[b + 1]) chunks.push_back(e - cu[b]);
      }
      const int64_t n = static_cast<int64_t>(chunks.size()) - 1;
      auto ints = [](const std::string& name, const V& v) {
        return TensorFromValues(name, vt::DType::kI32, {static_cast<int64_t>(v.size())}, Role::kInput,
                                std::vector<double>(v.begin(), v.end()));
      };
      one.Get("cu_seqlens") = ints("cu_seqlens", {0, cu[b + 1] - cu[b]});
      one.Get("cu_chunk_seqlens") = ints("cu_chunk_seqlens", chunks);
      one.Get("last_chunk_indices") = ints("last_chunk_indices", {n - 1});
      one.Get("seq_idx") = ints("seq_idx", V(static_cast<std::size_t>(n), 0));
      const Execution alone = Execute(op, one, ctx);
      if (!alone.guard_error.empty()) return ClaimOutcome::Violated(alone.guard_error);
      std::string d = DiffBytes(Rows(full.after.Get("out"), cu[b], cu[b + 1]), alone.after.Get("out"));
      if (d.empty()) d = DiffBytes(Rows(full.after.Get("final_states"), b, b + 1), alone.after.Get("final_states"));
      if (!d.empty()) return ClaimOutcome::Violated("sequence " + std::to_string(b) + " alone: " + d);
    }
    return ClaimOutcome::Holds();
  };
  return cl;
}

Claim ZeroInitialState(void (*build)(Case&)) {
  return SameAs("zero_initial_state", "initial_states of zeros gives the same bytes as no initial_states",
                [](const Params& p) { return !p.Flag("init"); }, "mamba2_chunk_scan",
                [build](const Case& c) {
                  Params p = c.params;
                  p.Set("init", 1);
                  Case z = Fresh(p, build);
                  TensorData& init = z.Get("initial_states");
                  init.SetValues(std::vector<double>(static_cast<std::size_t>(init.Numel()), 0.0));
                  return z;
                },
                {{"out", "out"}, {"final_states", "final_states"}});
}

}  // namespace
}  // namespace local_chunk_scan_claims

std::vector<Claim> ChunkScanClaims(void (*build)(Case&)) {
  using namespace local_chunk_scan_claims;
  return {IteratedStateUpdate(), ChunkSizeFree(build), VarlenEqualsAlone(), ZeroInitialState(build)};
}

}  // namespace vt::conform::mamba
