// Catalog entry: mamba2_chunk_scan (vLLM mamba_chunk_scan_combined_varlen:
// the varlen SSD prefill of Mamba2 / Nemotron-H / Granite-4 layers).
//
// Generator knobs (stable names; vt-fuzz's default campaign sets them):
//   x, dt        dtype of x/B/C/z and of dt: f32 | f16 | bf16
//   out          dtype of out: f32 | bf16
//   state        state dtype (final_states, initial_states): f32 | bf16
//   cs           chunk_size, a power of two
//   lens         sequence lengths, e.g. [7,8,9]; T = their sum. 0 is not a
//                valid length (the op refuses empty sequences)
//   chunking     vllm (compute_varlen_chunk_metadata: cut at sequence and
//                physical chunk boundaries) | per_seq (every sequence cut
//                from its own first token)
//   H, G, P, N   heads, B/C groups (G divides H), head dim, state dim
//   D            none | h ([H]) | hp ([H,P])
//   z            0 | 1 (the silu(z) gate)
//   dt_bias      0 | 1
//   softplus     0 | 1
//   dt_min       lower dt clamp (>= 0); dt_max: upper clamp, absent = +inf
//   init         0 | 1 (initial_states)
//   dist         normal | large_dt | small_a | overflow (harness/catalog/
//                mamba/mamba_entry.cpp: unit-normal x/B/C/z; large dt
//                (strong decay); A near 0 (long memory); dt around
//                softplus' guard at 20 with exp(dt A) underflowing)
// Metadata is built from lens, cs and chunking (chunk_metadata.h).
#include "harness/catalog/claims.h"
#include "harness/catalog/mamba/chunk_metadata.h"
#include "harness/catalog/mamba/chunk_scan_claims.h"
#include "harness/catalog/mamba/mamba_entry.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "oracles/mamba/mamba2_chunk_scan.h"
#include "vt/ops.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

namespace vt::conform {
namespace local_mamba2_chunk_scan {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

using V = std::vector<int64_t>;

std::vector<int64_t> DrawLens(Tier tier, int64_t cs) {
  const int64_t count = *gen::Pick(V{1, 2, 3, 1, 5});
  const std::string how = *gen::Pick(std::vector<std::string>{"boundary", "random", "short"});
  std::vector<int64_t> lens;
  const int64_t cap = tier == Tier::kSmoke ? 24 : 600;  // total tokens
  int64_t total = 0;
  for (int64_t b = 0; b < count; ++b) {
    int64_t len = 1;
    if (how == "boundary") {
      // on and around one and two chunks (1 doubles as cs - 1 when cs = 2)
      len = *gen::Pick(V{1, cs - 1, cs, cs + 1, 2 * cs - 1, 2 * cs, 2 * cs + 1});
    } else if (how == "random") {
      len = *rc::gen::inRange<int64_t>(1, 3 * cs + 2);
    } else {
      len = *gen::Pick(V{1, 2, 3});
    }
    len = std::max<int64_t>(len, 1);
    if (total + len > cap) break;
    lens.push_back(len);
    total += len;
  }
  if (lens.empty()) lens.push_back(1);
  return lens;
}

// After the dtypes (MambaSpec).
void Draw(Params& p, Tier tier) {
  const std::string dist = *gen::Pick(std::vector<std::string>{"normal", "normal", "large_dt", "small_a", "overflow"});
  const int64_t cs = tier == Tier::kSmoke ? *gen::Pick(V{4, 8}) : *gen::Pick(V{4, 8, 16, 1, 2, 64, 256});
  p.Set("cs", cs);
  const std::vector<int64_t> lens = DrawLens(tier, cs);
  p.Set("lens", Json(lens));
  p.Set("chunking", *gen::Pick(std::vector<std::string>{"vllm", "vllm", "per_seq"}));
  mamba::DrawHeads(p);
  // P (the vector tiers' lanes in stage 5) and N (their lanes in stage 2,
  // the chain walked a vector at a time in stage 5) below, between and past
  // the avx2 / avx512 widths 8 and 16 (docs/isa.md: vector tails drawn on purpose).
  p.Set("P", *gen::Pick(V{1, 2, 3, 8, 12, 16, 40}));
  p.Set("N", *gen::Pick(V{1, 4, 8, 12, 16, 17}));
  p.Set("D", *gen::Pick(std::vector<std::string>{"none", "h", "hp"}));
  mamba::DrawOptions(p);
  const int64_t clamp = *gen::Pick(V{0, 0, 1, 2});
  p.Set("dt_min", clamp == 1 ? 0.001 : clamp == 2 ? 0.05 : 0.0);
  if (clamp == 1) p.Set("dt_max", 0.1);
  p.Set("init", *gen::Flag());
  p.Set("dist", dist);
}

void Build(Case& c) {
  const Params& p = c.params;
  const V cu = seq::Cumulative(seq::IntList(p, "lens"));
  const int64_t T = cu.back(), S = static_cast<int64_t>(cu.size()) - 1;
  const int64_t H = p.Int("H"), P = p.Int("P"), N = p.Int("N");
  const mamba::ChunkMetadata m = p.Str("chunking") == "per_seq"
                                     ? mamba::PerSequenceChunkMetadata(cu, p.Int("cs"))
                                     : mamba::VarlenChunkMetadata(cu, p.Int("cs"));
  const vt::DType state = p.DType("state");
  const std::string d = p.Str("D");
  mamba::AddInputs(c, T, d == "h" ? V{H} : d == "hp" ? V{H, P} : V{});
  if (p.Flag("init")) c.Input("initial_states", state, {S, H, P, N}, Fill::Normal(0.0, 1.0));
  const int64_t nchunks = static_cast<int64_t>(m.seq_idx.size());
  seq::AddInts(c, "cu_seqlens", vt::DType::kI32, {S + 1}, cu);
  seq::AddInts(c, "cu_chunk_seqlens", vt::DType::kI32, {nchunks + 1}, m.cu_chunk_seqlens);
  seq::AddInts(c, "last_chunk_indices", vt::DType::kI32, {S}, m.last_chunk_indices);
  seq::AddInts(c, "seq_idx", vt::DType::kI32, {nchunks}, m.seq_idx);
  c.Output("out", p.DType("out"), {T, H, P});
  c.Output("final_states", state, {S, H, P, N});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::Mamba2ChunkScan(ctx, ws["out"], ws["final_states"], ws["x"], ws["dt"], ws["A"], ws["B"], ws["C"],
                      ws.Find("D"), ws.Find("z"), ws.Find("dt_bias"), ws.Find("initial_states"),
                      ws["cu_seqlens"], ws["cu_chunk_seqlens"], ws["last_chunk_indices"], ws["seq_idx"],
                      mamba::Args(ws.params()));
}

oracle::Mamba2ScanProblem Problem(const Case& c) {
  const Params& p = c.params;
  oracle::Mamba2ScanProblem q;
  const TensorData& x = c.Get("x");
  const TensorData& B = c.Get("B");
  q.T = x.shape[0], q.H = x.shape[1], q.P = x.shape[2], q.G = B.shape[1], q.N = B.shape[2];
  q.S = c.Get("final_states").shape[0];
  q.x = x.Values(), q.dt = c.Get("dt").Values(), q.A = c.Get("A").Values();
  q.B = B.Values(), q.C = c.Get("C").Values();
  q.D = mamba::ValuesOr(c, "D"), q.z = mamba::ValuesOr(c, "z"), q.dt_bias = mamba::ValuesOr(c, "dt_bias");
  q.init = mamba::ValuesOr(c, "initial_states");
  q.d_per_channel = c.Find("D") != nullptr && c.Get("D").shape.size() == 2;
  q.cu_seqlens = seq::Ints(c.Get("cu_seqlens"));
  q.cu_chunk_seqlens = seq::Ints(c.Get("cu_chunk_seqlens"));
  const vt::Mamba2Args a = mamba::Args(p);
  q.dt_softplus = a.dt_softplus;
  q.dt_min = a.dt_min, q.dt_max = a.dt_max;
  q.state_fmt = oracle::FmtOf(c.Get("final_states").dtype);
  return q;
}

// Truth, f32 baseline and the chunked algorithm's own error scale
// (docs/ops/mamba.md, "Tolerance"): per element
//   e = c * max|oracle<float> - truth|          (baseline rule, c = kBaselineC)
//     + per-term bound of the chunked algorithm  (each decay's f32 cumsum error over
//                                                the steps it spans; the L-, N- and
//                                                chunk-count-term sums)
//     + effect of handover roundings that may go either way (non-f32 state)
// and the output must lie in [R(v - e), R(v + e)], R its rounding.
// The baseline rule's measure: max|oracle<float> - truth| per output. It
// measures the f32 arithmetic of the recurrence with the handover rounding
// off (an f32 state), so that a handover rounding the f32 evaluation happens
// to flip does not inflate it; flips have their own term.
struct ScanBaseline {
  double out = 0.0, final_states = 0.0;
};
ScanBaseline Baseline(const oracle::Mamba2ScanProblem& q) {
  oracle::Mamba2ScanProblem q32 = q;
  q32.state_fmt = oracle::Fmt::kF32;
  const auto truth32 = oracle::Mamba2ChunkScanRecurrence<double>(q32);
  const auto same = oracle::Mamba2ChunkScanRecurrence<float>(q32);
  auto worst = [](const std::vector<double>& t, const std::vector<float>& f) {
    double m = 0.0;
    for (std::size_t k = 0; k < t.size(); ++k) {
      const double d = std::fabs(static_cast<double>(f[k]) - t[k]);
      if (std::isfinite(d)) m = std::max(m, d);
    }
    return m;
  };
  return {worst(truth32.out, same.out), worst(truth32.final_states, same.final_states)};
}

// The chunked algorithm's per-element allowances (the oracle's
// Mamba2ChunkScanScale): everything but the decays' cumsum error, per part of
// y - the intra-chunk part is a sum of i + 1 terms (added there per
// element), each an N-term CB dot and a few roundings (exp, products, dt);
// the carried part is an N-term dot C . S_prev with S_prev built by L-term
// chunk-state sums through a chain of chunks - and the flips of handover
// roundings.
oracle::Mamba2ScanScale Allowances(const oracle::Mamba2ScanProblem& q) {
  const double u = 0x1p-24;
  // Chunks per sequence (the state passing's chain length).
  int64_t chain = 1;
  for (std::size_t b = 0; b + 1 < q.cu_seqlens.size(); ++b) {
    int64_t n = 0;
    for (std::size_t k = 0; k + 1 < q.cu_chunk_seqlens.size(); ++k) {
      n += q.cu_chunk_seqlens[k] >= q.cu_seqlens[b] && q.cu_chunk_seqlens[k] < q.cu_seqlens[b + 1];
    }
    chain = std::max(chain, n);
  }
  int64_t longest_chunk = 0;
  for (std::size_t k = 0; k + 1 < q.cu_chunk_seqlens.size(); ++k) {
    longest_chunk = std::max(longest_chunk, q.cu_chunk_seqlens[k + 1] - q.cu_chunk_seqlens[k]);
  }
  const double intra_rel = static_cast<double>(q.N + 8) * u;
  const double carry_rel = static_cast<double>(q.N + longest_chunk + chain + 8) * u;
  return oracle::Mamba2ChunkScanScale(q, intra_rel, carry_rel);
}

OracleResult Oracle(const Case& c) {
  const oracle::Mamba2ScanProblem q = Problem(c);
  const auto truth = oracle::Mamba2ChunkScanRecurrence<double>(q);
  const auto scale = Allowances(q);
  const ScanBaseline base = Baseline(q);
  const double b_out = base.out, b_fs = base.final_states;
  Expected out, fs;
  out.v = truth.out;
  for (std::size_t k = 0; k < truth.out.size(); ++k) {
    out.e.push_back(mamba::kBaselineC * b_out + scale.out_err[k] + scale.out_flip[k] + mamba::kBaselineFloor);
  }
  fs.v = truth.final_states;
  for (std::size_t k = 0; k < truth.final_states.size(); ++k) {
    fs.e.push_back(mamba::kBaselineC * b_fs + scale.state_err[k] + mamba::kBaselineFloor);
  }
  return {{"out", out}, {"final_states", fs}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Bound(mamba::kBaselineWhy)}, {"final_states", Bound(mamba::kBaselineWhy)}};
}

// The tolerance is sharp: the oracle with a planted algorithm bug (a
// chunk's decay cumsum started from the previous chunk's total) must be
// rejected by this case's tolerance. Run on cases where it can show at all
// (f32 out; normal values: the decays keep the state entering a chunk), at
// least one handover. It applies only where it is visible: where it moves
// some output by more than a correct kernel may also move it - the baseline
// rule's allowance, kBaselineC * max|oracle<float> - truth|, plus, at that
// element, the effect of the handover roundings that may flip (out_flip: a
// correct f32 state one ulp off a bf16 midpoint rounds the other way). A
// case on which it is not visible is SKIPPED with its move, never FAILED.
Claim ToleranceIsSharp() {
  Claim cl;
  cl.name = "tolerance_is_sharp";
  cl.statement = "the tolerance rejects the recurrence with a chunk's decay cumsum carried over from the previous "
                 "chunk wherever that moves an output by more than the baseline allowance plus the handover-flip "
                 "allowance there";
  cl.applies = [](const Params& p) { return p.Str("out") == "f32" && p.Str("dist") == "normal"; };
  cl.check = [](const OpSpec& op, const Case& c, const vt::ExecContext&) {
    const oracle::Mamba2ScanProblem q = Problem(c);
    std::set<int64_t> starts(q.cu_seqlens.begin(), q.cu_seqlens.end());
    bool handover = false;
    for (int64_t t : q.cu_chunk_seqlens) handover = handover || !starts.count(t);
    if (!handover) return ClaimOutcome::NotApplicable("no chunk starts inside a sequence");
    const OracleResult want = op.oracle(c);
    const std::vector<OutputSpec> outs = op.outputs(c);
    const double visible = mamba::kBaselineC * Baseline(q).out + mamba::kBaselineFloor;
    const std::vector<double> flip = Allowances(q).out_flip;
    // Only the decay bug: dropping a handover rounding or moving a chunk
    // boundary by a token moves outputs by about one bf16 step of the state's
    // contribution, the size of the flip and rounding allowances a correct
    // kernel is granted there; on a case they either exceed the element's
    // whole allowance (and any check rejects them) or they do not (and no
    // sound tolerance can), so a per-case claim on them is either vacuous or
    // a false failure (vt-fuzz soak, issue 21). The same bugs planted in the
    // kernel are mutants the gate kills (mamba2-drop-state-rounding,
    // mamba2-chunk-boundary-off-by-one).
    std::vector<std::pair<std::string, oracle::Mamba2ScanProblem>> planted;
    oracle::Mamba2ScanProblem carry = q;
    carry.planted_cumsum_carry = true;
    planted.push_back({"cumsum carried over", carry});
    int checked = 0;
    std::string unseen;
    char buf[256];
    for (const auto& [what, bad] : planted) {
      const auto r = oracle::Mamba2ChunkScanRecurrence<double>(bad);
      const Expected& w = want.at("out");
      double moved = 0.0, allowed = 0.0, beyond = 0.0;  // beyond: largest move past what a correct kernel may do
      for (std::size_t k = 0; k < r.out.size(); ++k) {
        const double d = std::fabs(r.out[k] - w.v[k]);
        if (d > moved) moved = d, allowed = w.e[k];
        if (d > visible + flip[k]) beyond = std::max(beyond, d - visible - flip[k]);
      }
      if (!(beyond > 0.0)) {
        std::snprintf(buf, sizeof buf, "%s%s moves out by at most %.3g", unseen.empty() ? "" : "; ", what.c_str(),
                      moved);
        unseen += buf;
        continue;
      }
      ++checked;
      const TensorData& o = c.Get("out");
      const TensorData got = TensorFromValues("out", o.dtype, o.shape, Role::kOutput, r.out);
      if (CheckOutput(got, w, outs.front().tol, op.max_zero_fraction).passed()) {
        std::snprintf(buf, sizeof buf, " (largest move %.3g, allowed there %.3g; baseline allowance %.3g)", moved,
                      allowed, visible);
        return ClaimOutcome::Violated("the tolerance accepts the oracle with " + what + buf);
      }
    }
    if (checked == 0) {
      std::snprintf(buf, sizeof buf,
                    ", within the baseline allowance %.3g plus the handover-flip allowance there: no planted bug is "
                    "visible here",
                    visible);
      return ClaimOutcome::NotApplicable(unseen + buf);
    }
    return ClaimOutcome::Holds();
  };
  return cl;
}

int64_t Count(const Case& c, const std::string& name) { return static_cast<int64_t>(seq::Ints(c.Get(name)).size()); }

// After the shared ones (MambaSpec).
std::vector<ErrorCase> Errors() {
  std::vector<ErrorCase> e = {
      ErrorCase("chunk_size_not_pow2", [](Case& c) {
        c.params.Set("cs", c.params.Int("cs") * 3);  // larger: the chunks still fit
        return true;
      }, "chunk_size"),
      seq::SetArg("chunk_size_0", "cs", 0, "chunk_size"),
      seq::SetArg("dt_min_negative", "dt_min", -0.25, "dt_min"),
      seq::SetArg("dt_min_nan", "dt_min", std::nan(""), "dt_min"),
      seq::SetArg("dt_max_below_dt_min", "dt_max", -1.0, "dt_max"),
      seq::SetArg("dt_max_nan", "dt_max", std::nan(""), "dt_max"),
      mut::Dim("C", 1, 1), mut::Dim("out", 0, -1), mut::Dim("final_states", 3, 1), mut::Dim("final_states", 1, 1),
      mut::Dim("D", 1, 1), mut::Dim("z", 1, 1),
      mut::Dim("initial_states", 0, 1), mut::Dim("cu_seqlens", 0, 1), mut::Dim("last_chunk_indices", 0, 1),
      mut::Dim("seq_idx", 0, 1), mut::Dim("seq_idx", 0, -1),
      ErrorCase("cu_chunk_seqlens_single_entry", [](Case& c) {
        TensorData& t = c.Get("cu_chunk_seqlens");
        t.shape = {1};
        t.SetContiguous();
        return true;
      }, "cu_chunk_seqlens"),
      // -- metadata values (each breaks one rule of the validator's list) --
      seq::EditInts("chunk_bounds_past_T", "cu_chunk_seqlens", "cu_chunk_seqlens must start", seq::EndPastTotal),
      // chunk 0 empty (chunk 1 grows)
      seq::EditInts("chunk_empty", "cu_chunk_seqlens", "1..chunk_size", seq::FirstStepEmpty),
      ErrorCase("chunk_longer_than_chunk_size", [](Case& c) {
        const V ccs = seq::Ints(c.Get("cu_chunk_seqlens"));
        int64_t longest = 0;
        for (std::size_t k = 0; k + 1 < ccs.size(); ++k) longest = std::max(longest, ccs[k + 1] - ccs[k]);
        if (longest < 2) return false;
        int64_t cs = 1;
        while (cs * 2 < longest) cs *= 2;
        c.params.Set("cs", cs);  // still a power of two, now shorter than one chunk
        return true;
      }, "1..chunk_size"),
      seq::EditInts("seqlens_bounds_past_T", "cu_seqlens", "cu_seqlens must start", seq::EndPastTotal),
      seq::EditInts("seqlens_not_monotone", "cu_seqlens", "non-decreasing", [](V& v, const Case&) {
        if (v.size() < 3) return false;
        v[1] = v[2] + 1;
        return true;
      }),
      seq::EditInts("seqlens_empty_sequence", "cu_seqlens", "empty sequences", seq::FirstStepEmpty),
      seq::Rebuilt("empty_sequence_as_vllm_builds_it", "empty sequences", [](Params& p) {
        Json lens = p.args.at("lens");
        lens.push_back(0);
        p.Set("lens", lens);
        return true;
      }, Build),
      seq::EditInts("seq_idx_past_S", "seq_idx", "seq_idx entries", [](V& v, const Case& c) {
        v.back() = Count(c, "last_chunk_indices");
        return true;
      }),
      seq::EditInts("seq_idx_negative", "seq_idx", "seq_idx entries", seq::FirstNegative),
      seq::EditInts("last_chunk_past_nchunks", "last_chunk_indices", "last_chunk_indices entries",
                    [](V& v, const Case& c) {
                      v.back() = Count(c, "seq_idx");
                      return true;
                    }),
      seq::EditInts("last_chunk_minus_one", "last_chunk_indices", "last_chunk_indices entries", seq::FirstNegative),
      seq::EditInts("last_chunk_not_increasing", "last_chunk_indices", "strictly increasing", [](V& v, const Case& c) {
        if (v.size() >= 2) {
          v[0] = v[1];
        } else if (Count(c, "seq_idx") >= 2) {
          v[0] -= 1;  // the last chunk no longer covered
        } else {
          return false;
        }
        return true;
      }),
      seq::EditInts("seq_idx_inconsistent", "seq_idx", "seq_idx must name", [](V& v, const Case& c) {
        if (Count(c, "last_chunk_indices") < 2) return false;
        v.front() = 1;
        return true;
      }),
      seq::EditInts("chunk_crosses_sequence", "cu_seqlens", "crosses a sequence boundary", [](V& v, const Case&) {
        if (v.size() < 3) return false;
        if (v[2] - v[1] >= 2) {
          v[1] += 1;
        } else if (v[1] - v[0] >= 2) {
          v[1] -= 1;
        } else {
          return false;
        }
        return true;
      }),
      ErrorCase("A_zero", [](Case& c) {
        c.Get("A").overrides.push_back({c.Get("A").Numel() - 1, 0.0});
        return true;
      }, "A must be strictly negative"),
      ErrorCase("A_positive", [](Case& c) {
        c.Get("A").overrides.push_back({0, 0.5});
        return true;
      }, "A must be strictly negative"),
  };
  return e;
}

// vt-golden regen's goldens (golden/regen/vt_regen/ops_ssm.py: vLLM's
// mamba_chunk_scan_combined_varlen through the Triton interpreter): the op's
// own tensor names, the metadata vLLM's compute_varlen_chunk_metadata built;
// args chunk_size, dt_softplus, dt_min, dt_max (null: +inf).
GoldenMapping GoldenScan(const GoldenCase& g) {
  GoldenMapping m;
  mamba::RequireOneActivationDtype(g, {"dt", "B", "C"});
  const TensorData& fs = g.Get("final_states");
  if (g.Has("initial_states") && g.Get("initial_states").dtype != fs.dtype) {
    throw GoldenUnsupported("initial and final states of different dtypes");
  }
  Params p("mamba2_chunk_scan");
  mamba::SetGoldenDtypes(p, g, "final_states");
  p.Set("cs", static_cast<int64_t>(g.ArgNum("chunk_size", 0)));
  const std::vector<int64_t> cu = seq::Ints(g.Get("cu_seqlens"));
  std::vector<int64_t> lens;
  for (std::size_t s = 0; s + 1 < cu.size(); ++s) lens.push_back(cu[s + 1] - cu[s]);
  p.Set("lens", Json(lens));
  // The chunking that built the recorded metadata (the tensors are the
  // golden's either way): vLLM's, or every sequence cut from its own start.
  const std::vector<int64_t> ccs = seq::Ints(g.Get("cu_chunk_seqlens"));
  const bool per_seq = ccs != mamba::VarlenChunkMetadata(cu, p.Int("cs")).cu_chunk_seqlens &&
                       ccs == mamba::PerSequenceChunkMetadata(cu, p.Int("cs")).cu_chunk_seqlens;
  p.Set("chunking", per_seq ? "per_seq" : "vllm");
  mamba::SetGoldenShape(p, g, !g.Has("D") ? "none" : g.Get("D").shape.size() == 2 ? "hp" : "h");
  p.Set("dt_min", g.ArgNum("dt_min", 0.0));
  const double dt_max = g.ArgNum("dt_max", std::numeric_limits<double>::infinity());
  if (std::isfinite(dt_max)) p.Set("dt_max", dt_max);
  p.Set("init", g.Has("initial_states") ? 1 : 0);
  p.Set("dist", "normal");
  m.c.params = p;
  for (const char* name : {"x", "dt", "A", "B", "C", "D", "z", "dt_bias", "initial_states", "cu_seqlens",
                           "cu_chunk_seqlens", "last_chunk_indices", "seq_idx"}) {
    if (g.Has(name)) m.c.tensors.push_back(GoldenTensor(g, name, name, Role::kInput));
  }
  m.c.tensors.push_back(GoldenOutputLike(g, "out", "out"));
  m.c.tensors.push_back(GoldenOutputLike(g, "final_states", "final_states"));
  m.compare = {{"out", "out"}, {"final_states", "final_states"}};
  PerOutputTol(g, m);
  return m;
}

// The inverse of GoldenScan (vt-fuzz --upstream): the case as the
// "mamba2_chunk_scan" runner key's call, its metadata tensors as drawn (the
// kernel and vLLM's take any valid metadata). What the runner key does not
// cover has no upstream form here: vLLM's chunk scan takes one activation
// dtype for x/dt/B/C/z; the worker runs state_dtype f32 (the tolerance
// derivation of the regenerated goldens covers f32 states only); f16
// activations through the Triton interpreter were never measured.
constexpr int64_t kUpstreamChunkHeads = 24;

UpstreamCall UpstreamScan(const Case& c) {
  const Params& p = c.params;
  if (p.DType("dt") != p.DType("x")) throw GoldenUnsupported("dt of another dtype than x (one activation dtype)");
  if (p.DType("x") == vt::DType::kF16) throw GoldenUnsupported("f16 activations (not measured in the interpreter)");
  if (p.DType("state") != vt::DType::kF32) throw GoldenUnsupported("a bf16 state (the worker runs state_dtype f32)");
  // Measured: the Triton interpreter spends ~0.2 s per (chunk, head) over the
  // five kernels (T = 300, cs = 16, H = 4: 15 s), twice for bf16; larger
  // cases are left to the oracle mode so a minute holds more than a few.
  if (c.Get("seq_idx").Numel() * p.Int("H") > kUpstreamChunkHeads) {
    throw GoldenUnsupported("more than " + std::to_string(kUpstreamChunkHeads) +
                            " (chunk, head) programs: too slow in the Triton interpreter");
  }
  UpstreamCall u;
  u.op = "mamba2_chunk_scan";
  const TensorData& x = c.Get("x");
  const TensorData& B = c.Get("B");
  u.args = {{"chunk_size", p.Int("cs")},   {"dt_softplus", p.Flag("softplus")},
            {"dt_min", p.Num("dt_min")},   {"dt_max", p.Has("dt_max") ? Json(p.Num("dt_max")) : Json(nullptr)},
            {"seqlens", p.args.at("lens")}, {"H", x.shape[1]}, {"G", B.shape[1]}, {"P", x.shape[2]},
            {"N", B.shape[2]},             {"state_dtype", "f32"}};
  for (const char* name : {"x", "dt", "A", "B", "C", "D", "z", "dt_bias", "initial_states", "cu_seqlens",
                           "cu_chunk_seqlens", "last_chunk_indices", "seq_idx"}) {
    if (c.Find(name) != nullptr) u.inputs.push_back(UpstreamInput(c, name, name));
  }
  u.outputs = {UpstreamOutput(c, "out", "out"), UpstreamOutput(c, "final_states", "final_states")};
  return u;
}

}  // namespace
}  // namespace local_mamba2_chunk_scan

OpSpec Spec_mamba2_chunk_scan() {
  using namespace local_mamba2_chunk_scan;
  using entry::Operand;
  using entry::Written;
  const std::vector<vt::DType> i32 = {vt::DType::kI32};
  OpSpec s = mamba::MambaSpec({
      .name = "mamba2_chunk_scan",
      .dtypes = "cpu: x/dt/B/C/z f32/f16/bf16; A/D/dt_bias f32; out, final_states/initial_states f32/bf16; metadata "
                "i32",
      .hooks = {Draw, Build, Run, Oracle},
      .outputs = Outputs,
      .d_ranks = {1, 2},
      .operands = {Operand("initial_states", entry::kFloatOut, entry::kContiguous, {4}),
                   Operand("cu_seqlens", i32, entry::kContiguous, {1}),
                   Operand("cu_chunk_seqlens", i32, entry::kContiguous, {1}),
                   Operand("last_chunk_indices", i32, entry::kContiguous, {1}),
                   Operand("seq_idx", i32, entry::kContiguous, {1}),
                   Written("out", entry::kFloatOut, entry::kContiguous, {3}),
                   Written("final_states", entry::kFloatOut, entry::kContiguous, {4})},
      .x_shape = "x [T,H,P]",
      .errors = Errors(),
      .claims = mamba::ChunkScanClaims(Build),
      .goldens = {{"mamba2_chunk_scan", GoldenScan}},
  });
  s.claims.push_back(ToleranceIsSharp());
  return s;
}

UpstreamMap UpstreamMap_mamba2_chunk_scan() {
  using namespace local_mamba2_chunk_scan;
  return {"mamba2_chunk_scan", "mamba2_chunk_scan", UpstreamScan};
}

}  // namespace vt::conform
