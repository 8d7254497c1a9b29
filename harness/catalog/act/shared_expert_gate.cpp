// Catalog entry: shared_expert_gate (Qwen MoE: the shared expert's output scaled by
// sigmoid of its per-token gate logit, stored as bf16).
#include <cmath>

#include "harness/catalog/act/act_entry.h"
#include "oracles/act/shared_expert_gate.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_shared_expert_gate {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// sd needs only T*H elements: [T,H] or [T,1,H] (both keep T leading, so a
// row slice is the same tokens in every operand). gl is [T] or [T,1].
void Draw(Params& p, Tier) {
  p.Set("sd_shape", *gen::Pick(std::vector<std::string>{"th", "th", "t1h"}));
  p.Set("gl_shape", *gen::Pick(std::vector<std::string>{"t", "t1"}));
  p.Set("scale", *act::ExpScale());
  // f32 sd chosen so that each product lands on a bf16 rounding midpoint.
  if (p.Str("sd") == "f32") p.Set("midpoints", *gen::Flag());
}

// The bf16 output hides a one-ulp slip in the f32 gate (a sigmoid computed in
// double, as a division, ...) unless the f32 product sits within an ulp of a
// bf16 rounding midpoint, which a random input does once in ~2^16. So pick
// sd[t,c] = m / g_t in f32, with g_t = the spec's f32 sigmoid(gl[t]) and m the
// bf16 midpoint next to the drawn value: the product lands on (or one ulp
// from) m, and a changed g_t flips the stored bf16 about half the time.
void AimAtMidpoints(TensorData& sd, const TensorData& gl, uint64_t seed, int64_t t, int64_t h) {
  TensorData g_in = gl;
  MaterializeTensor(g_in, seed);
  TensorData s_in = sd;
  MaterializeTensor(s_in, seed);
  const std::vector<double> ones(static_cast<std::size_t>(t), 1.0);
  const std::vector<float> g = oracle::SharedExpertGate<float>(t, 1, ones, g_in.Values());
  const std::vector<double> drawn = s_in.Values();
  for (int64_t r = 0; r < t; ++r) {
    const float gr = g[static_cast<std::size_t>(r)];
    if (!(gr > 0.0f) || !std::isfinite(gr)) continue;
    for (int64_t col = 0; col < h; ++col) {
      const std::size_t k = static_cast<std::size_t>(r * h + col);
      const double v = drawn[k] * gr;
      const double lo = oracle::RoundReal(oracle::Fmt::kBF16, v);
      const double step = oracle::UlpOf(oracle::Fmt::kBF16, lo);
      const double mid = lo + (v >= lo ? 0.5 : -0.5) * step;  // the midpoint on v's side of lo
      sd.overrides.emplace_back(static_cast<int64_t>(k), static_cast<double>(static_cast<float>(mid / gr)));
    }
  }
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), h = p.Int("H");
  const std::vector<int64_t> sd = p.Str("sd_shape") == "t1h" ? std::vector<int64_t>{t, 1, h}
                                                             : std::vector<int64_t>{t, h};
  const std::vector<int64_t> gl = p.Str("gl_shape") == "t1" ? std::vector<int64_t>{t, 1}
                                                            : std::vector<int64_t>{t};
  c.Input("sd", p.DType("sd"), sd, entry::Values(p));
  c.Input("gl", p.DType("gl"), gl, entry::Values(p));
  c.Output("out", p.DType("out"), {t, h});
  if (p.Has("midpoints") && p.Flag("midpoints")) AimAtMidpoints(c.Get("sd"), c.Get("gl"), c.params.seed, t, h);
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::SharedExpertGate(ctx, ws["out"], ws["sd"], ws["gl"]);
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& out = c.Get("out");
  return {{"out", oracle::SharedExpertGate<S>(out.shape[0], out.shape[1], c.Get("sd").Values(), c.Get("gl").Values())}};
}

// sd flattened as attn and gl repeated over each token's H elements as gate:
// both kernels compute SigmoidF32(gate) in f32, multiply by the f32 value of the
// data (a commutative IEEE product) and round once to bf16, so the bytes agree.
Case AsSigmoidGate(const Case& c) {
  const TensorData& out = c.Get("out");
  const int64_t t = out.shape[0], h = out.shape[1];
  const auto gl = c.Get("gl").Values();
  std::vector<double> gate;
  gate.reserve(static_cast<std::size_t>(t * h));
  for (int64_t i = 0; i < t; ++i) gate.insert(gate.end(), static_cast<std::size_t>(h), gl[static_cast<std::size_t>(i)]);
  Case d;
  d.params = Params("sigmoid_gate_bf16");
  d.params.Set("attn", c.params.Str("sd"));
  d.params.Set("gate", "f32");
  d.params.Set("out", "bf16");
  d.params.seed = c.params.seed;
  d.tensors.push_back(act::Reshaped(c.Get("sd"), "attn", Role::kInput, {t * h}));
  d.tensors.push_back(TensorFromValues("gate", vt::DType::kF32, {t * h}, Role::kInput, gate));
  d.tensors.push_back(CopyTensor(out, "out", Role::kOutput));
  return d;
}

}  // namespace
}  // namespace local_shared_expert_gate

OpSpec Spec_shared_expert_gate() {
  using namespace local_shared_expert_gate;
  OpSpec s = act::ActSpec({
      .name = "shared_expert_gate",
      .calls = {Run, Eval<entry::Bounded>, Eval<float>},
      .rule = Bound("f32: expf(-gl) (glibc, 1 ulp), 1 + that, 1 / that, times sd: running "
                    "error bound of each f32 step, then one rounding to bf16 "
                    "(docs/tolerance.md)"),
      .dtypes = "cpu: sd f32/bf16 (T*H elements); gl f32 [T] or [T,1]; out bf16 [T,H]",
      // gl and out: one dtype each.
      .keys = {entry::DrawOneOf("sd", {"f32", "bf16"}), entry::Fixed("gl", "f32"), entry::Fixed("out", "bf16")},
      .width = "H",
      .draw = Draw,
      .build = Build,
  });
  s.contract = {{entry::Operand("sd", entry::kF32BF16, entry::kAnyShape), entry::Operand("gl", entry::kF32, entry::kContiguous, {1, 2}), entry::Written("out", entry::kBF16, entry::kContiguous, {2})}, {}};
  // One gate logit per token: a special gl reaches that token's row.
  s.values.specials = {{"sd"}, {"gl", true}};
  s.values.edges = [](const Params&) { return ExpBands("gl"); };
  s.errors = {mut::DType("out", vt::DType::kF32), mut::DType("out", vt::DType::kF16),
              mut::DType("sd", vt::DType::kF16),  mut::DType("sd", vt::DType::kI32),
              mut::DType("gl", vt::DType::kBF16), mut::AddDim("out"),
              mut::DropDim("out"),                mut::Dim("gl", 0, 1),
              mut::Dim("gl", 1, 1),  // [T,2]: only [T] and [T,1] are gates
              mut::Dim("sd", 0, 1),               mut::Strided("out"),
              mut::Strided("sd"),                 mut::Strided("gl"),
              mut::NullData("out"),               mut::NullData("sd"),
              mut::NullData("gl"),                mut::OtherDevice("sd"),
              mut::Alias("out", "sd"),
              mut::Alias("gl", "out")};  // out onto gl fits only for H <= 2
  s.claims = {
      RowSlice({"out", "sd", "gl"}),
      SameAs("sigmoid_gate_broadcast",
             "shared_expert_gate(sd, gl) == sigmoid_gate_bf16(attn = sd as [T*H], gate = gl "
             "repeated H times per token)",
             {}, "sigmoid_gate_bf16", AsSigmoidGate, {{"out", "out"}}),
  };
  return s;
}

}  // namespace vt::conform
