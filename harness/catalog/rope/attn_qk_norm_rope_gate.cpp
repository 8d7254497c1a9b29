// Catalog entry: attn_qk_norm_rope_gate (Qwen3-Next full-attention preamble:
// q|gate split, Gemma RMSNorm of q and k heads, partial NeoX RoPE from the
// per-token cos|sin rows, gate passthrough).
#include "harness/catalog/catalog.h"
#include "harness/catalog/rope/rope_entry.h"
#include "oracles/rope/attn_qk_norm_rope_gate.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_attn_qk_norm_rope_gate {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  p.Set("in", *gen::FloatIn());    // qgate and kf
  p.Set("out", *gen::FloatOut());  // q_out and k_out
  // gate_out: q_out's dtype, or f32 beside bf16 q/k outputs.
  p.Set("gate", *gen::Pick(std::vector<std::string>{"same", "f32"}));
  p.Set("T", *gen::Rows(tier));
  p.Set("Hq", *gen::Heads(tier));
  p.Set("Hkv", *gen::Heads(tier));
  const int64_t rot = *rope_entry::RotaryDim(tier);
  p.Set("rot", rot);
  p.Set("Dh", *rope_entry::HeadDim(rot));
  p.Set("gemma", *gen::Pick(std::vector<int64_t>{1, 1, 0}));  // the model uses Gemma norms
  p.Set("eps", *gen::Eps());
  p.Set("qpad", *gen::Pad());
  p.Set("kpad", *gen::Pad());
}

vt::DType GateDType(const Params& p) { return p.Str("gate") == "f32" ? vt::DType::kF32 : p.DType("out"); }

void Build(Case& c) {
  const Params& p = c.params;
  const vt::DType in = p.DType("in"), out = p.DType("out");
  const int64_t t = p.Int("T"), hq = p.Int("Hq"), hkv = p.Int("Hkv"), dh = p.Int("Dh");
  const Fill w = p.Flag("gemma") ? Fill::Uniform(-0.5, 0.5) : Fill::Uniform(0.5, 1.5);
  c.Input("qgate", in, {t, hq * 2 * dh}, entry::Values(p)).SetRowPadding(p.Int("qpad"));
  c.Input("kf", in, {t, hkv * dh}, entry::Values(p)).SetRowPadding(p.Int("kpad"));
  c.Input("q_norm", vt::DType::kF32, {dh}, w);
  c.Input("k_norm", vt::DType::kF32, {dh}, w);
  c.Input("cos_sin", vt::DType::kF32, {t, p.Int("rot")}, Fill::Uniform(-1.0, 1.0));
  c.Output("q_out", out, {t, hq, dh});
  c.Output("k_out", out, {t, hkv, dh});
  c.Output("gate_out", GateDType(p), {t, hq, dh});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  vt::AttnQkNormRopeGate(ctx, ws["q_out"], ws["k_out"], ws["gate_out"], ws["qgate"], ws["kf"], ws["q_norm"],
                         ws["k_norm"], ws["cos_sin"], {p.F32("eps"), p.Flag("gemma")}, rope_entry::Args(p));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const Params& p = c.params;
  const TensorData& qo = c.Get("q_out");
  const int64_t t = qo.shape[0], hq = qo.shape[1], dh = qo.shape[2], hkv = c.Get("k_out").shape[1];
  std::vector<double> q, gate;
  oracle::SplitQGate(t, hq, dh, entry::Vals(c, "qgate"), q, gate);
  const auto cs = entry::Vals(c, "cos_sin");
  return {{"q_out", oracle::NormRopeHeads<S>(t, hq, dh, q, entry::Vals(c, "q_norm"), p.Flag("gemma"), p.F32("eps"),
                                             cs, p.Int("rot"))},
          {"k_out", oracle::NormRopeHeads<S>(t, hkv, dh, entry::Vals(c, "kf"), entry::Vals(c, "k_norm"),
                                             p.Flag("gemma"), p.F32("eps"), cs, p.Int("rot"))},
          {"gate_out", entry::Inputs<S>(gate)}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  const std::string why =
      "rms_norm of the head (f32 sum of squares, /Dh, +eps, sqrt, reciprocal, two products, +1 for "
      "gemma), then the NeoX rotation (two products, one add/sub) on dims < rot: running error bound";
  return {{"q_out", Bound(why)},
          {"k_out", Bound(why)},
          {"gate_out", Exact("a copy of the gate half (widened to f32 or kept): defined exactly")}};
}

// With f32 outputs the fused op is the composite, bit for bit: rope_cos_sin_cache
// of some positions gives the per-token cos|sin rows; attn_gate_split splits
// qgate into q and gate (f32); rms_norm (gemma as the case says) of every q and
// k head with f32 out; rope_from_cache (NeoX, one cache row per token) rotates
// them in place. attn_gate_split takes f32/bf16 qgate only: for an f16 qgate
// the split is this entry's own (a plain copy of the two halves).
Claim Composite() {
  Claim cl;
  cl.name = "split_norms_rope";
  cl.statement = "attn_qk_norm_rope_gate (f32 out) == attn_gate_split + rms_norm(q), rms_norm(k) + rotation by "
                 "rope_cos_sin_cache's rows (rope_from_cache), bit for bit";
  cl.applies = [](const Params& p) { return p.Str("out") == "f32" && p.Int("T") >= 1; };
  cl.check = [](const OpSpec& op, const Case& drawn, const vt::ExecContext& ctx) {
    const Params& p = drawn.params;
    const int64_t t = p.Int("T"), hq = p.Int("Hq"), hkv = p.Int("Hkv"), dh = p.Int("Dh"), rot = p.Int("rot");
    // 1. The cos|sin rows, from rope_cos_sin_cache at positions drawn from the seed.
    Case cs;
    cs.params = Params("rope_cos_sin_cache");
    cs.params.Set("rot", rot);
    cs.params.Set("base", 10000.0);
    cs.params.seed = p.seed;
    cs.Input("positions", vt::DType::kI64, {t}, Fill::Uniform(0.0, 8192.0));
    cs.Output("cos_sin", vt::DType::kF32, {t, rot});
    Materialize(cs);
    const Execution table = Execute(*FindOp("rope_cos_sin_cache"), cs, ctx);
    Case mine = drawn;
    mine.Get("cos_sin") = CopyTensor(table.after.Get("cos_sin"), "cos_sin", Role::kInput);
    const Execution fused = Execute(op, mine, ctx);
    // 2. The composite, per operand. The split: attn_gate_split on a packed
    //    copy of qgate (its contract: contiguous, f32/bf16).
    std::vector<double> q, gate;
    oracle::SplitQGate(t, hq, dh, entry::Vals(mine, "qgate"), q, gate);
    const vt::DType in = mine.Get("qgate").dtype;
    std::string split_error;
    if (in != vt::DType::kF16) {
      Case sp;
      sp.params = Params("attn_gate_split");
      sp.params.seed = p.seed;
      sp.tensors = {CopyTensor(mine.Get("qgate"), "qgate", Role::kInput)};
      MaterializeTensor(sp.Output("q_out", vt::DType::kF32, {t, hq, dh}), p.seed);
      MaterializeTensor(sp.Output("gate_out", vt::DType::kF32, {t, hq, dh}), p.seed);
      const Execution split = Execute(*FindOp("attn_gate_split"), sp, ctx);
      split_error = split.guard_error;
      q = split.after.Get("q_out").Values();
      gate = split.after.Get("gate_out").Values();
    }
    std::vector<double> rows(static_cast<size_t>(t));
    for (int64_t i = 0; i < t; ++i) rows[static_cast<size_t>(i)] = static_cast<double>(i);
    auto norm_rope = [&](const std::vector<double>& x, vt::DType in, int64_t heads, const char* w) {
      Case n;
      n.params = Params("rms_norm");
      n.params.Set("gemma", p.Int("gemma"));
      n.params.Set("eps", p.Num("eps"));
      n.params.seed = p.seed;
      n.tensors = {TensorFromValues("x", in, {t * heads, dh}, Role::kInput, x),
                   CopyTensor(mine.Get(w), "weight", Role::kInput),
                   TensorFromValues("out", vt::DType::kF32, {t * heads, dh}, Role::kOutput,
                                    std::vector<double>(static_cast<size_t>(t * heads * dh), 0.0))};
      const Execution normed = Execute(*FindOp("rms_norm"), n, ctx);
      Case r;
      r.params = Params("rope_from_cache");
      r.params.Set("rot", rot);
      r.params.Set("neox", 1);
      r.params.Set("mrope", "none");
      r.params.seed = p.seed;
      TensorData qr = CopyTensor(normed.after.Get("out"), "q", Role::kInPlace);
      qr.shape = {t, heads, dh};
      qr.SetContiguous();
      r.tensors = {qr, TensorFromValues("positions", vt::DType::kI64, {t}, Role::kInput, rows),
                   CopyTensor(mine.Get("cos_sin"), "cache", Role::kInput)};
      return Execute(*FindOp("rope_from_cache"), r, ctx).after.Get("q");
    };
    // The split's f32 q holds qgate's values exactly: the norm reads them as f32.
    const vt::DType q_in = in == vt::DType::kF16 ? in : vt::DType::kF32;
    std::string d = DiffBytes(fused.after.Get("q_out"), norm_rope(q, q_in, hq, "q_norm"), true);
    if (d.empty()) d = DiffBytes(fused.after.Get("k_out"), norm_rope(entry::Vals(mine, "kf"), in, hkv, "k_norm"), true);
    if (d.empty()) {
      const TensorData& go = fused.after.Get("gate_out");
      d = DiffBytes(go, TensorFromValues("gate", go.dtype, go.shape, Role::kOutput, gate), true);
    }
    if (!split_error.empty()) d = "attn_gate_split: " + split_error;
    if (!fused.guard_error.empty()) d = fused.guard_error;
    return d.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated(d);
  };
  return cl;
}

ErrorCase OtherDType(const std::string& tensor, vt::DType (*to)(vt::DType), const std::string& expect) {
  return ErrorCase(tensor + "_other_dtype", [=](Case& c) {
    TensorData& t = c.Get(tensor);
    const vt::DType dt = to(t.dtype);
    if (dt == t.dtype) return false;
    t.dtype = dt;
    t.fmt = oracle::FmtOf(dt);
    t.SetContiguous();
    return true;
  }, expect);
}

}  // namespace
}  // namespace local_attn_qk_norm_rope_gate

OpSpec Spec_attn_qk_norm_rope_gate() {
  using namespace local_attn_qk_norm_rope_gate;
  OpSpec s = rope_entry::RopeSpec(
      {.name = "attn_qk_norm_rope_gate",
       .dtypes = "cpu: qgate [T,Hq*2*Dh], kf [T,Hkv*Dh] f32/f16/bf16 (one dtype, padded rows); q_norm, k_norm [Dh] "
                 "f32; cos_sin [T,rot] f32; q_out, k_out f32/bf16; gate_out q_out's dtype or f32",
       .draw = Draw, .build = Build, .run = Run, .truth = Eval<entry::Bounded>, .f32 = Eval<float>, .outputs = Outputs});
  s.contract = {{entry::Operand("qgate", entry::kFloatIn, entry::kRowStrided, {2}),
                 entry::Operand("kf", entry::kFloatIn, entry::kRowStrided, {2}),
                 entry::Operand("q_norm", entry::kF32, entry::kContiguous, {1}),
                 entry::Operand("k_norm", entry::kF32, entry::kContiguous, {1}),
                 entry::Operand("cos_sin", entry::kF32, entry::kContiguous, {2}),
                 entry::Written("q_out", entry::kFloatOut, entry::kContiguous, {3}),
                 entry::Written("k_out", entry::kFloatOut, entry::kContiguous, {3}),
                 entry::Written("gate_out", entry::kFloatOut, entry::kContiguous, {3})},
                {entry::PositiveFinite("eps")}};
  s.values.specials = {{"qgate", true}, {"kf", true}, {"q_norm"}, {"k_norm"}, {"cos_sin"}};
  s.errors = {
      mut::Dim("k_out", 0, 1), mut::Dim("k_out", 2, 1), mut::Dim("gate_out", 1, 1), mut::Dim("gate_out", 2, 1),
      mut::Dim("qgate", 1, 1), mut::Dim("qgate", 0, 1), mut::Dim("kf", 1, 1), mut::Dim("kf", 0, 1),
      mut::Dim("q_norm", 0, 1), mut::Dim("k_norm", 0, -1), mut::Dim("cos_sin", 1, 2), mut::Dim("cos_sin", 0, 1),
      OtherDType("k_out", [](vt::DType d) { return d == vt::DType::kF32 ? vt::DType::kBF16 : vt::DType::kF32; },
                 "k_out must have q_out's dtype"),
      OtherDType("kf", [](vt::DType d) { return d == vt::DType::kF16 ? vt::DType::kBF16 : vt::DType::kF16; },
                 "kf must have qgate's dtype"),
      ErrorCase("gate_out_bf16_beside_f32", [](Case& c) {
        if (c.Get("q_out").dtype != vt::DType::kF32) return false;
        TensorData& g = c.Get("gate_out");
        g.dtype = vt::DType::kBF16;
        g.fmt = oracle::Fmt::kBF16;
        return true;
      }, "gate_out must have q_out's dtype or be f32")};
  seq::Append(s.errors, rope_entry::RotaryErrors(rope_entry::WidthFollows("cos_sin"),
                                                 [](const Case& c) { return c.params.Int("Dh"); }));
  s.errors.push_back(
      ErrorCase("head_dim0", [](Case& c) {
        // Dh = 0 in every operand that carries it (rot follows): only Dh > 0 breaks.
        for (const char* n : {"q_out", "k_out", "gate_out", "qgate", "kf", "q_norm", "k_norm"}) {
          TensorData& t = c.Get(n);
          t.shape.back() = 0;
          t.SetContiguous();
        }
        return true;
      }, "Dh = q_out.shape[2] must be > 0"));
  s.claims = {Composite(), RowSlice({"qgate", "kf", "cos_sin", "q_out", "k_out", "gate_out"})};
  return s;
}

}  // namespace vt::conform
