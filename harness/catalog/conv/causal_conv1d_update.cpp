// Catalog entry: causal_conv1d_update (vLLM causal_conv1d_update, one decode
// token per row; optional conv_state_indices with NULL slots; state rows may
// be physically wider than K-1).
#include "harness/catalog/catalog.h"
#include "harness/catalog/conv/conv_entry.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "oracles/conv/causal_conv1d_update.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_causal_conv1d_update {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

using entry::Bounded;

// After the common knobs (conv::DrawCommon).
void Draw(Params& p, Tier tier) {
  p.Set("T", *gen::Rows(tier));  // batch rows (the row_slice claim's leading extent)
  // State row width L = K-1 + wide: speculative-decoding caches are wider.
  p.Set("wide", *gen::Pick(std::vector<int64_t>{0, 0, 1, 3}));
  p.Set("indices", *gen::Pick(std::vector<std::string>{"slots", "slots", "none"}));
  p.Set("extra", *gen::Pick(std::vector<int64_t>{0, 1, 5}));  // cache slots beyond the batch
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t b = p.Int("T"), ch = p.Int("C"), k = p.Int("K");
  const bool indexed = p.Str("indices") == "slots";
  const int64_t slots = indexed ? b + p.Int("extra") : b;
  conv::BuildCommon(c, b);
  c.Add("conv_state", vt::DType::kF32, {slots, ch, k - 1 + p.Int("wide")}, Role::kInPlace, entry::Values(p));
  if (indexed) seq::AddInts(c, "conv_state_indices", vt::DType::kI32, conv::DrawSlots(p.seed, b, slots, true));
  c.Output("out", p.DType("out"), {b, ch});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::CausalConv1dUpdate(ctx, ws["out"], ws["x"], ws["weight"], ws.Find("bias"), ws["conv_state"],
                         ws.Find("conv_state_indices"), conv::Args(ws.params()));
}

std::vector<int64_t> Slots(const Case& c) {
  const TensorData* idx = c.Find("conv_state_indices");
  if (idx != nullptr) return seq::Ints(*idx);
  std::vector<int64_t> v;
  for (int64_t b = 0; b < c.Get("x").shape[0]; ++b) v.push_back(b);
  return v;
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& w = c.Get("weight");
  const TensorData& st = c.Get("conv_state");
  auto r = oracle::CausalConv1dUpdate<S>(w.shape[0], w.shape[1], st.shape[2], c.Get("x").Values(), w.Values(),
                                         conv::BiasValues(c), st.Values(), Slots(c), c.params.Flag("silu"));
  return {{"out", std::move(r.out)}, {"conv_state", std::move(r.state)}};
}

// A widened state row behaves as its leading K-1 taps: the same call on a
// cache narrowed to K-1 taps gives the same out and the same leading taps
// (the other taps are held unchanged by the oracle's exact state rule).
Case Narrowed(const Case& c) {
  Case m = c;
  const TensorData& st = c.Get("conv_state");
  const int64_t k = c.Get("weight").shape[1], width = k - 1, len = st.shape[2];
  const auto v = st.Values();
  std::vector<double> nv;
  for (int64_t r = 0; r < st.shape[0] * st.shape[1]; ++r) {
    for (int64_t j = 0; j < width; ++j) nv.push_back(v[static_cast<std::size_t>(r * len + j)]);
  }
  m.Get("conv_state") = TensorFromValues("conv_state", vt::DType::kF32, {st.shape[0], st.shape[1], width},
                                         Role::kInPlace, nv);
  m.params.Set("wide", 0);
  return m;
}

ClaimOutcome WideEqNarrow(const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
  const Execution a = Execute(op, c, ctx);
  const Execution b = Execute(op, Narrowed(c), ctx);
  if (!a.guard_error.empty()) return ClaimOutcome::Violated(a.guard_error);
  if (!b.guard_error.empty()) return ClaimOutcome::Violated("narrowed: " + b.guard_error);
  std::string d = DiffBytes(a.after.Get("out"), b.after.Get("out"), true);
  if (!d.empty()) return ClaimOutcome::Violated("out: " + d);
  d = DiffBytes(Narrowed(a.after).Get("conv_state"), b.after.Get("conv_state"), true);
  if (!d.empty()) return ClaimOutcome::Violated("leading taps: " + d);
  return ClaimOutcome::Holds();
}

// The indexed cache must be one row short of the batch - and nothing else
// broken: row 0 becomes NULL and the other rows take slots 0..B-2.
bool CacheShort(Case& c) {
  TensorData* idx = c.Find("conv_state_indices");
  const int64_t b = c.Get("x").shape[0];
  if (idx == nullptr || b < 2) return false;
  TensorData& st = c.Get("conv_state");
  st.shape[0] = b - 1;
  st.SetContiguous();
  std::vector<int64_t> v = {-1};
  for (int64_t i = 0; i + 1 < b; ++i) v.push_back(i);
  seq::SetInts(*idx, v);
  return true;
}

// vLLM causal_conv1d_update goldens: x [B,dim], weight [dim,width],
// conv_state_in/out [B,dim,width-1] (or the whole cache with
// conv_state_indices), activation, optional bias.
GoldenMapping GoldenUpdate(const GoldenCase& g) {
  const bool silu = conv::GoldenSilu(g);
  TensorData x = GoldenTensor(g, "x", "x", Role::kInput);
  if (x.shape.size() == 3 && x.shape[2] == 1) {  // [B, dim, seqlen 1]
    x.shape = {x.shape[0], x.shape[1]};
    x.SetContiguous();
  }
  TensorData w = conv::GoldenWeight(g);
  conv::RequireF32State(g);
  const TensorData& st = g.Get("conv_state_in");
  if (x.shape.size() != 2 || w.shape.size() != 2 || x.shape[1] != w.shape[0]) {
    throw GoldenUnsupported("x must be [B,dim] (one token per row) with weight [dim,width]");
  }
  TensorData out = GoldenOutputLike(g, "out", "out");
  if (out.shape.size() == 3 && out.shape[2] == 1) {
    out.shape = {out.shape[0], out.shape[1]};
    out.SetContiguous();
  }
  Params p("causal_conv1d_update");
  conv::SetGoldenDtypes(p, g, x, w, out);
  p.Set("T", x.shape[0]);
  p.Set("C", x.shape[1]);
  p.Set("K", w.shape[1]);
  p.Set("silu", silu ? 1 : 0);
  p.Set("pad", 0);
  p.Set("wide", st.shape.size() == 3 ? st.shape[2] - (w.shape[1] - 1) : 0);
  const bool indexed = g.Has("conv_state_indices");
  p.Set("indices", indexed ? "slots" : "none");
  GoldenMapping m;
  m.c.params = p;
  m.c.tensors = {x, w, GoldenTensor(g, "conv_state_in", "conv_state", Role::kInPlace), out};
  if (indexed) m.c.tensors.push_back(GoldenTensor(g, "conv_state_indices", "conv_state_indices", Role::kInput));
  if (g.Has("bias")) m.c.tensors.push_back(GoldenTensor(g, "bias", "bias", Role::kInput));
  m.compare = {{"out", "out"}, {"conv_state", "conv_state_out"}};
  PerOutputTol(g, m);  // vt-fuzz --upstream: the state exact, out its derived bound
  return m;
}

// The inverse for vt-fuzz --upstream: vLLM's plain-torch update
// (causal_conv1d_update_torch, the regen callable), indexed rows gathered and
// scattered around it by the worker (vt_regen/live_third.py).
UpstreamCall UpstreamUpdate(const Case& c) {
  const Params& p = c.params;
  RequireElements(c, "out");
  if (p.Int("pad") > 0) throw GoldenUnsupported("padded x rows (upstream takes x contiguous)");
  // A 16-bit weight or bias is given to upstream as f32 by the worker (exact;
  // the fallback would otherwise round the f32 state to the weight's dtype,
  // where vLLM's update kernels and the port compute in f32).
  if (p.Int("K") < 2) throw GoldenUnsupported("K = 1: no state taps (an empty conv_state_out cannot be judged)");
  if (p.Int("wide") > 0) {
    throw GoldenUnsupported("a state row wider than K-1 (upstream's fallback shifts the whole row and convolves its "
                            "trailing K-1 taps; the port reads the leading K-1 and keeps the rest)");
  }
  if (const TensorData* idx = c.Find("conv_state_indices")) {
    for (double v : idx->Values()) {
      if (v < 0) {
        throw GoldenUnsupported("a NULL slot (the port zero-fills its out row; upstream's kernels leave it unwritten "
                                "and the fallback takes no indices)");
      }
    }
  }
  UpstreamCall u;
  u.op = "causal_conv1d_update";
  u.args = {{"activation", p.Flag("silu") ? "silu" : "none"}};
  u.inputs = {UpstreamInput(c, "x", "x"), UpstreamInput(c, "weight", "weight"),
              UpstreamInput(c, "conv_state", "conv_state_in")};
  if (c.Find("conv_state_indices") != nullptr) {
    u.inputs.push_back(UpstreamInput(c, "conv_state_indices", "conv_state_indices"));
  }
  if (p.Str("bias") != "none") u.inputs.push_back(UpstreamInput(c, "bias", "bias"));
  u.outputs = {UpstreamOutput(c, "out", "out"), UpstreamOutput(c, "conv_state", "conv_state_out")};
  return u;
}

std::vector<ErrorCase> Errors() {
  return {mut::Dim("conv_state_indices", 0, 1),
          {"conv_state_rows_not_batch",
           [](Case& c) {
             if (c.Find("conv_state_indices") != nullptr) return false;
             TensorData& st = c.Get("conv_state");
             st.shape[0] += 1;
             st.SetContiguous();
             return true;
           },
           "conv_state"},
          {"indexed_cache_short", CacheShort, "conv_state"},
          seq::EditInts("indices_out_of_range_N", "conv_state_indices", "conv_state_indices",
                        [](std::vector<int64_t>& v, const Case& c) {
                          if (v.empty()) return false;
                          v.back() = c.Get("conv_state").shape[0];
                          return true;
                        }),
          seq::EditInts("indices_out_of_range_max", "conv_state_indices", "conv_state_indices",
                        [](std::vector<int64_t>& v, const Case&) {
                          if (v.empty()) return false;
                          v.front() = 2147483647;
                          return true;
                        }),
          conv::DuplicateSlot("conv_state_indices")};
}

}  // namespace
}  // namespace local_causal_conv1d_update

OpSpec Spec_causal_conv1d_update() {
  using namespace local_causal_conv1d_update;
  Claim slice = RowSlice({"x", "out", "conv_state"});
  slice.applies = [](const Params& p) { return p.Str("indices") == "none" && p.Int("T") >= 2; };
  return conv::ConvSpec({
      .name = "causal_conv1d_update",
      .dtypes = "cpu: x [B,C] f32/f16/bf16 (rows may be padded), weight [C,K], bias [C]; out f32/bf16; conv_state "
                "[N,C,L>=K-1] f32 in place; conv_state_indices i32 [B] (< 0 = NULL: out row zero-filled)",
      .min_k = 1,
      .hooks = {Draw, Build, Run, Eval<Bounded>, Eval<float>},
      .operands = {entry::Operand("conv_state_indices", {vt::DType::kI32}, entry::kContiguous, {1})},
      .errors = Errors(),
      .claims = {slice,
                 {"wide_eq_narrow", "a widened state row == the same call on its leading K-1 taps (out and taps)",
                  [](const Params& p) { return p.Int("wide") > 0; }, WideEqNarrow}},
      .goldens = {{"causal_conv1d_update", GoldenUpdate}},
  });
}

UpstreamMap UpstreamMap_causal_conv1d_update() {
  using namespace local_causal_conv1d_update;
  return {"causal_conv1d_update", "causal_conv1d_update", UpstreamUpdate};
}

}  // namespace vt::conform
