// Catalog entry: rms_norm_quant_fp8 (vLLM fusion: RMSNorm -> static fp8 quant).
#include "harness/catalog/catalog.h"
#include "harness/catalog/norm/norm_entry.h"
#include "oracles/norm/rms_norm_quant_fp8.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_rms_norm_quant_fp8 {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  norm_entry::DrawRmsShape(p, tier);
  p.Set("out_bf16", *gen::Flag());
}

void Build(Case& c) {
  norm_entry::BuildRmsInputs(c);
  const int64_t t = c.params.Int("T"), h = c.params.Int("H");
  c.Output("out_fp8", vt::DType::kU8, {t, h}).fmt = oracle::Fmt::kFp8E4M3;
  if (c.params.Flag("out_bf16")) c.Output("out_bf16", vt::DType::kBF16, {t, h});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  vt::RmsNormQuantFp8(ctx, ws["out_fp8"], ws.Find("out_bf16"), ws["x"], ws["weight"],
                      {p.F32("eps"), p.Flag("gemma")}, ws.Find("residual"), p.F32("input_scale"));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& x = c.Get("x");
  norm_entry::ResidualIn<S> res(c);
  const auto q = oracle::RmsNormQuantFp8<S>(x.shape[0], x.shape[1], x.Values(), entry::Vals(c, "weight"),
                                            c.params.Flag("gemma"), c.params.F32("eps"), res.get(), res.fmt(),
                                            c.params.F32("input_scale"));
  entry::Outs<S> o{{"out_fp8", q.fp8}, {"out_bf16", q.bf16}};
  res.AddTo(o);
  return o;
}

std::vector<OutputSpec> Outputs(const Case& c) {
  std::vector<OutputSpec> o = {
      {"out_fp8", Bound("rms_norm's f32 running bound carried through the bf16 store, one f32 "
                        "multiply by 1/scale and the saturating e4m3 rounding (interval rule)")}};
  if (c.Find("out_bf16") != nullptr) {
    o.push_back({"out_bf16", Bound("rms_norm's f32 running bound, then the bf16 store")});
  }
  if (c.Find("residual") != nullptr) {
    o.push_back({"residual", Exact("one f32 add of exact inputs rounded to the residual dtype")});
  }
  return o;
}

// Bit-identical to the split path: rms_norm with a bf16 out, then the static
// fp8 quant of that bf16 value (vLLM's unfused graph).
ClaimOutcome SplitPath(const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
  Case split = c;
  split.params.op = "rms_norm";
  split.params.Set("out", "bf16");
  split.tensors.clear();
  for (const TensorData& t : c.tensors) {
    if (t.name == "x" || t.name == "weight" || t.name == "residual") split.tensors.push_back(t);
  }
  const TensorData& fp8 = c.Get("out_fp8");
  split.Output("out", vt::DType::kBF16, fp8.shape);
  MaterializeTensor(split.Get("out"), c.params.seed);
  const Execution fused = Execute(op, c, ctx);
  const Execution plain = Execute(*FindOp("rms_norm"), split, ctx);
  const TensorData quant = norm_entry::QuantFp8Static(plain.after.Get("out"), c.params.F32("input_scale"), "out_fp8");
  std::string d = DiffBytes(fused.after.Get("out_fp8"), quant);
  if (d.empty() && c.Find("out_bf16") != nullptr) d = DiffBytes(fused.after.Get("out_bf16"), plain.after.Get("out"), true);
  if (d.empty() && c.Find("residual") != nullptr) d = DiffBytes(fused.after.Get("residual"), plain.after.Get("residual"), true);
  return d.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated(d);
}

}  // namespace
}  // namespace local_rms_norm_quant_fp8

OpSpec Spec_rms_norm_quant_fp8() {
  using namespace local_rms_norm_quant_fp8;
  OpSpec s = norm_entry::NormSpec({
      .name = "rms_norm_quant_fp8",
      .keys = {entry::DrawIn("x"), entry::DrawIn("w")},
      .dtypes = "cpu: x,weight f32/f16/bf16; out_fp8 u8 (e4m3fn); out_bf16 bf16; residual f32/bf16",
      .draw = Draw,
      .input_scale = true,
      .fns = {Build, Run, Eval<entry::Bounded>, Eval<float>, Outputs},
  });
  s.contract = {{entry::Operand("x", entry::kFloatIn, entry::kContiguous, {2}), entry::Operand("weight", entry::kFloatIn, entry::kContiguous, {1}), entry::Written("residual", entry::kF32BF16), entry::Written("out_fp8", entry::kU8), entry::Written("out_bf16", entry::kBF16)}, {entry::PositiveFinite("eps"), entry::PositiveFinite("input_scale")}};
  // NaN reaches the fp8 code 0x7F, inf saturates; the 448 edge is input_scale's.
  s.values.specials = {{"x", true}, {"residual", true}, {"weight"}};
  s.errors = {mut::DType("out_fp8", vt::DType::kI8),  mut::DType("out_bf16", vt::DType::kF32),
              mut::DType("x", vt::DType::kI32),        mut::DType("residual", vt::DType::kF16),
              mut::Dim("out_fp8", 1, 1),               mut::Dim("out_bf16", 0, 1),
              mut::Dim("weight", 0, -1),               mut::Dim("residual", 1, 1),
              mut::Strided("out_fp8"),                 mut::Strided("out_bf16"),
              mut::Strided("x"),                       mut::AddDim("x"),
              mut::NullData("out_fp8"),                mut::OtherDevice("x"),
              mut::Alias("out_bf16", "residual"),      mut::Alias("out_fp8", "out_bf16"),
              mut::Arg("input_scale", 0.0),            mut::Arg("input_scale", -2.0),
              mut::Arg("input_scale", NAN),            mut::Arg("eps", 0.0),
              mut::EmptyInner("x")};
  s.claims = {{"split_path", "== rms_norm to bf16, then static fp8 quant of that bf16 value", {}, SplitPath},
              RowSlice({"x", "residual", "out_fp8", "out_bf16"})};
  return s;
}

}  // namespace vt::conform
