// Catalog entry: rms_norm_gated_quant_fp8 (the gated-norm epilogue fused with
// static fp8 quant). Gate and weight share x's dtype by contract.
#include "harness/catalog/catalog.h"
#include "harness/catalog/norm/norm_entry.h"
#include "oracles/norm/rms_norm_gated_quant_fp8.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_rms_norm_gated_quant_fp8 {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Build(Case& c) {
  const vt::DType dt = c.params.DType("x");
  norm_entry::BuildGatedInputs(c, dt, dt, dt);
  c.Output("out_fp8", vt::DType::kU8, c.Get("x").shape).fmt = oracle::Fmt::kFp8E4M3;
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  vt::RmsNormGatedQuantFp8(ctx, ws["out_fp8"], ws["x"], ws["gate"], ws["weight"],
                           {p.F32("eps"), p.Flag("sigmoid")}, p.F32("input_scale"));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& x = c.Get("x");
  return {{"out_fp8", oracle::RmsNormGatedQuantFp8<S>(norm_entry::GatedRows(x), x.shape.back(), x.Values(),
                                                      entry::Vals(c, "gate"), entry::Vals(c, "weight"), c.params.F32("eps"),
                                                      c.params.Flag("sigmoid"), c.params.F32("input_scale"))}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out_fp8", Bound("rms_norm_gated's running bound through the bf16 store, the f32 "
                            "multiply by 1/scale and the saturating e4m3 rounding (interval rule)")}};
}

// Bit-identical to the split path: rms_norm_gated to bf16, then static fp8 quant.
ClaimOutcome SplitPath(const OpSpec& op, const Case& c, const vt::ExecContext& ctx) {
  Case split = c;
  split.params.op = "rms_norm_gated";
  split.params.Set("out", "bf16");
  split.tensors.erase(split.tensors.begin() + (split.Find("out_fp8") - split.tensors.data()));
  split.Output("out", vt::DType::kBF16, c.Get("x").shape);
  MaterializeTensor(split.Get("out"), c.params.seed);
  const Execution fused = Execute(op, c, ctx);
  const Execution plain = Execute(*FindOp("rms_norm_gated"), split, ctx);
  const std::string d = DiffBytes(
      fused.after.Get("out_fp8"),
      norm_entry::QuantFp8Static(plain.after.Get("out"), c.params.F32("input_scale"), "out_fp8"));
  return d.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated(d);
}

}  // namespace
}  // namespace local_rms_norm_gated_quant_fp8

OpSpec Spec_rms_norm_gated_quant_fp8() {
  using namespace local_rms_norm_gated_quant_fp8;
  OpSpec s = norm_entry::NormSpec({
      .name = "rms_norm_gated_quant_fp8",
      .keys = {entry::DrawIn("x")},
      .dtypes = "cpu: x,gate,weight one of f32/f16/bf16; out_fp8 u8 (e4m3fn)",
      .draw = norm_entry::DrawGated,
      .input_scale = true,
      .fns = {Build, Run, Eval<entry::Bounded>, Eval<float>, Outputs},
  });
  // The gate checks close hazard H-4 (the original never validated the gate).
  s.contract = {{entry::Operand("x", entry::kFloatIn, entry::kContiguous, {2, 3}), entry::Operand("gate", entry::kFloatIn, entry::kRowStrided), entry::Operand("weight", entry::kFloatIn, entry::kContiguous, {1}), entry::Written("out_fp8", entry::kU8)}, {entry::PositiveFinite("eps"), entry::PositiveFinite("input_scale")}};
  s.values.specials = {{"x", true}, {"gate"}, {"weight"}};
  s.values.edges = [](const Params&) { return ExpBands("gate"); };
  s.errors = {mut::Dim("gate", 0, 1),                 mut::Dim("gate", 1, -1),
              mut::AddDim("gate"),                    mut::DropDim("gate"),
              mut::InnerStride("gate"),               mut::OverlappingRows("gate"),
              mut::DType("gate", vt::DType::kF32),    mut::DType("gate", vt::DType::kBF16),
              mut::DType("weight", vt::DType::kF16),  mut::DType("out_fp8", vt::DType::kBF16),
              mut::Dim("out_fp8", 0, 1),              mut::Strided("out_fp8"),
              mut::NullData("gate"),                  mut::OtherDevice("out_fp8"),
              mut::Alias("out_fp8", "x"),             mut::Arg("input_scale", 0.0),
              mut::Arg("input_scale", INFINITY),      mut::Arg("eps", NAN),
              mut::Dim("weight", 0, 1),               mut::EmptyInner("x"),
              mut::PaddedMiddle("gate"),              mut::DType("gate", vt::DType::kF16)};
  s.claims = {{"split_path", "== rms_norm_gated to bf16, then static fp8 quant of that bf16 value", {}, SplitPath},
              RowSlice({"x", "gate", "out_fp8"})};
  return s;
}

}  // namespace vt::conform
