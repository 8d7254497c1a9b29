// Catalog entry: mamba2_state_update (vLLM selective_state_update at Mamba2's
// scalar-per-head shape: one decode step per batch row, state in place).
//
// Generator knobs: x, dt (dtypes of x/B/C/z and of dt), out, state (state
// dtype), Nb (batch rows), H, G, P, N, D (0 | 1: D [H]), z, dt_bias,
// softplus (0 | 1), slots (none: row b owns slot b | indexed: state_indices
// with NULL rows and spare slots), dist (as mamba2_chunk_scan).
#include <algorithm>
#include <numeric>

#include "harness/catalog/mamba/mamba_entry.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "harness/core/rng.h"
#include "oracles/mamba/mamba2_state_update.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_mamba2_state_update {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

using V = std::vector<int64_t>;

void Draw(Params& p, Tier tier) {
  p.Set("Nb", *gen::Pick(tier == Tier::kSmoke ? V{1, 2, 3} : V{1, 2, 3, 4, 7, 8, 16, 33}));
  mamba::DrawHeads(p);
  // P (the vector tiers' lanes: p-rows side by side) and N (the chain,
  // walked a vector of columns at a time) both below, between and past the
  // avx2 / avx512 widths 8 and 16 (docs/isa.md: vector tails drawn on purpose).
  p.Set("P", *gen::Pick(V{1, 2, 3, 8, 12, 16, 40, 64}));
  p.Set("N", *gen::Pick(V{1, 4, 8, 12, 16, 17, 128}));
  p.Set("D", *gen::Flag());
  mamba::DrawOptions(p);
  p.Set("slots", *gen::Pick(std::vector<std::string>{"none", "indexed", "indexed"}));
  p.Set("dist", *gen::Pick(std::vector<std::string>{"normal", "normal", "large_dt", "small_a", "overflow"}));
}

// Indexed: 2 Nb + 1 slots; row b's slot is a seed-drawn distinct slot, and
// about one row in five (never all of them) is a NULL row (-1).
V Slots(const Params& p) {
  const int64_t nb = p.Int("Nb"), S = 2 * nb + 1;
  V perm(static_cast<std::size_t>(S));
  std::iota(perm.begin(), perm.end(), 0);
  uint64_t h = SplitMix64(p.seed ^ 0x5107);
  for (int64_t i = S - 1; i > 0; --i) {
    h = SplitMix64(h);
    std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(h % static_cast<uint64_t>(i + 1))]);
  }
  V slots(perm.begin(), perm.begin() + nb);
  for (int64_t b = 1; b < nb; b += 5) slots[static_cast<std::size_t>(b)] = -1;
  return slots;
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t nb = p.Int("Nb"), H = p.Int("H"), P = p.Int("P"), N = p.Int("N");
  const bool indexed = p.Str("slots") == "indexed";
  const int64_t S = indexed ? 2 * nb + 1 : nb;
  mamba::AddInputs(c, nb, p.Flag("D") ? V{H} : V{});
  if (indexed) seq::AddInts(c, "state_indices", vt::DType::kI32, {nb}, Slots(p));
  c.Add("state", p.DType("state"), {S, H, P, N}, Role::kInPlace, Fill::Normal(0.0, 1.0));
  c.Output("out", p.DType("out"), {nb, H, P});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::Mamba2StateUpdate(ctx, ws["out"], ws["state"], ws["x"], ws["dt"], ws["A"], ws["B"], ws["C"], ws.Find("D"),
                        ws.Find("z"), ws.Find("dt_bias"), ws.Find("state_indices"), mamba::Args(ws.params()));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  oracle::Mamba2StepProblem q;
  const TensorData& x = c.Get("x");
  q.Nb = x.shape[0], q.H = x.shape[1], q.P = x.shape[2];
  q.G = c.Get("B").shape[1], q.N = c.Get("B").shape[2];
  q.S = c.Get("state").shape[0];
  q.x = x.Values(), q.dt = c.Get("dt").Values(), q.A = c.Get("A").Values();
  q.B = c.Get("B").Values(), q.C = c.Get("C").Values(), q.state = c.Get("state").Values();
  q.D = mamba::ValuesOr(c, "D"), q.z = mamba::ValuesOr(c, "z"), q.dt_bias = mamba::ValuesOr(c, "dt_bias");
  if (c.Find("state_indices") != nullptr) q.slots = seq::Ints(c.Get("state_indices"));
  q.dt_softplus = c.params.Flag("softplus");
  q.state_fmt = oracle::FmtOf(c.Get("state").dtype);
  auto r = oracle::Mamba2StateUpdate<S>(q);
  return {{"out", std::move(r.out)}, {"state", std::move(r.state)}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Bound("f32 step: dt (+bias) (softplus: expf, log1pf), expf(A dt), s dA + (B x) dt per "
                        "n, N-term sequential sum with C, + D x, * silu(z): running error bound of "
                        "each f32 step, one rounding at the store (docs/tolerance.md)")},
          {"state", Bound("the updated slot: s dA + (B x) dt bounded as for out, rounded once to the state "
                          "dtype; untouched slots exactly their input (docs/ops/mamba.md)")}};
}

// After the shared ones (MambaSpec).
std::vector<ErrorCase> Errors() {
  return {
      mut::Dim("out", 0, 1), mut::Dim("state", 1, 1), mut::Dim("state", 3, 1), mut::Dim("z", 2, 1),
      mut::Dim("state_indices", 0, 1),
      ErrorCase("state_slots_without_indices", [](Case& c) {
        if (c.Find("state_indices") != nullptr) return false;
        TensorData& s = c.Get("state");
        s.shape[0] += 1;
        s.SetContiguous();
        return true;
      }, "state must have Nb"),
      ErrorCase("A_zero", [](Case& c) {
        c.Get("A").overrides.push_back({0, 0.0});
        return true;
      }, "A must be strictly negative"),
      ErrorCase("A_nan", [](Case& c) {
        c.Get("A").overrides.push_back({c.Get("A").Numel() - 1, std::nan("")});
        return true;
      }, "A must be strictly negative"),
      seq::EditInts("slot_out_of_range", "state_indices", "state_indices entries must be < S", [](V& v, const Case& c) {
        v.back() = c.Get("state").shape[0];
        return true;
      }),
      seq::EditInts("slot_duplicated", "state_indices", "distinct", [](V& v, const Case&) {
        V live;
        for (int64_t s : v) {
          if (s >= 0) live.push_back(s);
        }
        if (live.size() < 2) return false;
        for (int64_t& s : v) {
          if (s >= 0 && s != live.front()) {
            s = live.front();
            break;
          }
        }
        return true;
      }),
  };
}

// vt-golden regen's goldens (golden/regen/vt_regen/ops_ssm.py: vLLM's
// selective_state_update through the Triton interpreter, Mamba2's tied head
// dim): x, dt [Nb,H], A, B, C, D [H], z, dt_bias, state_in [S,H,P,N],
// state_indices (no NULL rows: upstream's NULL row computes out from a zero
// state where ours writes zeros); compared: out, state_out (every slot).
GoldenMapping GoldenStep(const GoldenCase& g) {
  const TensorData& x = g.Get("x");
  mamba::RequireOneActivationDtype(g, {"B", "C"});
  if (g.Has("D") && g.Get("D").shape.size() != 1) throw GoldenUnsupported("D [H,P] (the decode step takes D [H])");
  if (g.Has("state_indices")) {
    for (int64_t s : seq::Ints(g.Get("state_indices"))) {
      if (s < 0 || s == static_cast<int64_t>(g.ArgNum("null_block_id", -1))) {
        throw GoldenUnsupported("a NULL row (upstream computes its out from a zero state; ours writes zeros)");
      }
    }
  }
  GoldenMapping m;
  Params p("mamba2_state_update");
  mamba::SetGoldenDtypes(p, g, "state_in");
  p.Set("Nb", x.shape[0]);
  mamba::SetGoldenShape(p, g, g.Has("D") ? 1 : 0);
  p.Set("slots", g.Has("state_indices") ? "indexed" : "none");
  p.Set("dist", "normal");
  m.c.params = p;
  for (const char* name : {"x", "dt", "A", "B", "C", "D", "z", "dt_bias", "state_indices"}) {
    if (g.Has(name)) m.c.tensors.push_back(GoldenTensor(g, name, name, Role::kInput));
  }
  m.c.tensors.push_back(GoldenTensor(g, "state_in", "state", Role::kInPlace));
  m.c.tensors.push_back(GoldenOutputLike(g, "out", "out"));
  m.compare = {{"out", "out"}, {"state", "state_out"}};
  PerOutputTol(g, m);
  return m;
}

// The inverse of GoldenStep (vt-fuzz --upstream): the case as the
// "mamba2_state_update" runner key's call - vLLM's selective_state_update at
// Mamba2's tied head dim (vt_regen/live.py expands A, dt, dt_bias and D over
// [P, N] with stride 0, as MambaMixer2 passes them). A NULL row has no
// upstream form: upstream computes its out from a zero state where ours
// writes zeros (GoldenStep refuses it), so an indexed case maps only when no
// row is NULL (Slots: Nb = 1). No NULL block line is reserved: the call names
// null_block_id -1, which no live row uses.
//
// Measured in the Triton interpreter (loaded 2-core machine): 35-45 ms per
// program, a program being one (row, head, BLOCK_SIZE_M rows of P) block
// (upstream's launch heuristic: BLOCK_SIZE_M 32 for N <= 16, 16 for N <= 32,
// 8 for N <= 64, else 4): Nb = 3, H = 4, P = 64, N = 128 is 192 programs,
// 8.6 s; the campaign's largest (Nb = 33, H = 8) is 4224. Bounded at 48
// programs (about 2 s) so a minute holds tens of cases; larger cases are the
// oracle mode's.
constexpr int64_t kUpstreamStepPrograms = 48;

int64_t UpstreamBlockM(int64_t N) { return N <= 16 ? 32 : N <= 32 ? 16 : N <= 64 ? 8 : 4; }

UpstreamCall UpstreamStep(const Case& c) {
  const Params& p = c.params;
  if (c.Find("state_indices") != nullptr) {
    for (int64_t s : seq::Ints(c.Get("state_indices"))) {
      if (s < 0) throw GoldenUnsupported("a NULL row (upstream computes its out from a zero state; ours writes zeros)");
    }
  }
  const TensorData& x = c.Get("x");
  const int64_t Nb = x.shape[0], H = x.shape[1], P = x.shape[2], N = c.Get("B").shape[2];
  const int64_t bm = UpstreamBlockM(N);
  const int64_t programs = Nb * H * ((P + bm - 1) / bm);
  if (programs > kUpstreamStepPrograms) {
    throw GoldenUnsupported(std::to_string(programs) + " Triton programs (more than " +
                            std::to_string(kUpstreamStepPrograms) + "): too slow in the Triton interpreter");
  }
  UpstreamCall u;
  u.op = "mamba2_state_update";
  u.args = {{"dt_softplus", p.Flag("softplus")}, {"Nb", Nb}, {"H", H}, {"G", c.Get("B").shape[1]}, {"P", P},
            {"N", N}, {"slots", c.Get("state").shape[0]}, {"null_block_id", -1}, {"tie_hdim", true}};
  for (const char* name : {"x", "dt", "A", "B", "C", "D", "z", "dt_bias", "state_indices"}) {
    if (c.Find(name) != nullptr) u.inputs.push_back(UpstreamInput(c, name, name));
  }
  u.inputs.push_back(UpstreamInput(c, "state", "state_in"));
  u.outputs = {UpstreamOutput(c, "out", "out"), UpstreamOutput(c, "state", "state_out")};
  return u;
}

}  // namespace
}  // namespace local_mamba2_state_update

OpSpec Spec_mamba2_state_update() {
  using namespace local_mamba2_state_update;
  using entry::Operand;
  using entry::Written;
  return mamba::MambaSpec({
      .name = "mamba2_state_update",
      .dtypes = "cpu: x/dt/B/C/z f32/f16/bf16; A/D/dt_bias f32; out, state (in place) f32/bf16; state_indices i32",
      .hooks = {Draw, Build, Run, entry::Bounds(Eval<entry::Bounded>), entry::F32(Eval<float>)},
      .outputs = Outputs,
      .d_ranks = {1},
      .operands = {Operand("state_indices", {vt::DType::kI32}, entry::kContiguous, {1}),
                   Written("out", entry::kFloatOut, entry::kContiguous, {3}),
                   Written("state", entry::kFloatOut, entry::kContiguous, {4})},
      .x_shape = "x [Nb,H,P]",
      .errors = Errors(),
      .goldens = {{"mamba2_state_update", GoldenStep}},
  });
}

UpstreamMap UpstreamMap_mamba2_state_update() {
  using namespace local_mamba2_state_update;
  return {"mamba2_state_update", "mamba2_state_update", UpstreamStep};
}

}  // namespace vt::conform
