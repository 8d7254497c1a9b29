// Catalog entry: sigmoid_gate_bf16 (Qwen3-Next's attention output gate:
// attn * sigmoid(gate), stored as bf16).
#include "harness/catalog/act/act_entry.h"
#include "oracles/act/sigmoid_gate_bf16.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

using entry::Bounded;

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("sigmoid_gate_bf16");
    p.Set("attn", *gen::Pick(std::vector<std::string>{"f32", "bf16"}));
    p.Set("gate", "f32");  // the only gate dtype: the sigmoid input is never pre-rounded
    p.Set("out", "bf16");  // the only output dtype
    p.Set("T", *gen::Rows(tier));
    p.Set("D", *gen::Width(tier));
    p.Set("shape", *act::FlatShapeKnob());  // exercises the "equal numel" contract
    p.Set("scale", *act::ExpScale());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) { act::BuildFlatBinary(c, "attn", "gate"); }

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::SigmoidGateBf16(ctx, ws["out"], ws["attn"], ws["gate"]);
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  return {{"out", oracle::SigmoidGate<S>(c.Get("attn").Values(), c.Get("gate").Values())}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Bound("f32: expf(-gate) (glibc, 1 ulp), 1 + that, 1 / that, attn * that: "
                        "running error bound of each f32 step, then one rounding to bf16 "
                        "(docs/tolerance.md)")}};
}

}  // namespace

OpSpec Spec_sigmoid_gate_bf16() {
  OpSpec s;
  s.name = "sigmoid_gate_bf16";
  s.family = "act";
  s.dtypes = "cpu: attn f32/bf16; gate f32; out bf16; any ranks, equal element counts";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = Outputs;
  // Ranks are free (flat op), so there is no rank error; element counts are the shape contract.
  s.contract = {{entry::Operand("attn", entry::kF32BF16, entry::kAnyShape), entry::Operand("gate", entry::kF32, entry::kAnyShape), entry::Written("out", entry::kBF16, entry::kAnyShape)}, {}};
  s.values.specials = {{"attn"}, {"gate"}};
  s.values.edges = [](const Params&) { return ExpBands("gate"); };
  s.errors = {mut::DType("attn", vt::DType::kF16), mut::DType("attn", vt::DType::kI32),
              mut::DType("gate", vt::DType::kBF16), mut::DType("gate", vt::DType::kF16),
              mut::DType("out", vt::DType::kF32),  mut::DType("out", vt::DType::kF16),
              mut::Dim("out", 0, 1),               mut::Dim("attn", 0, 1),
              mut::Dim("gate", 0, -1),             mut::Strided("attn"),
              mut::Strided("gate"),                mut::Strided("out"),
              mut::NullData("attn"),               mut::NullData("gate"),
              mut::NullData("out"),                mut::OtherDevice("gate"),
              mut::Alias("out", "attn"),           mut::Alias("out", "gate")};
  // shared_expert_gate's claim covers the cross-op identity from the other side.
  s.claims = {FlatSlice({"attn", "gate", "out"})};
  return s;
}

}  // namespace vt::conform
