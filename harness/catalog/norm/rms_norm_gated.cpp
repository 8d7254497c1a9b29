// Catalog entry: rms_norm_gated (FLA rmsnorm_fn / vLLM RMSNormGated; Qwen3-Next
// silu gate, KDA sigmoid gate; the gate may be a padded-token-stride view).
#include "harness/catalog/norm/norm_entry.h"
#include "oracles/norm/rms_norm_gated.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

using entry::Bounded;

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("rms_norm_gated");
    p.Set("x", *gen::FloatIn());
    p.Set("gate", *gen::FloatIn());
    p.Set("w", *gen::FloatIn());
    p.Set("out", *gen::FloatOut());
    norm_entry::DrawGatedShape(p, tier);
    p.Set("sigmoid", *gen::Flag());
    p.Set("eps", *gen::Eps());
    p.Set("scale", *gen::Scale());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) {
  const Params& p = c.params;
  norm_entry::BuildGatedInputs(c, p.DType("x"), p.DType("gate"), p.DType("w"));
  c.Output("out", p.DType("out"), c.Get("x").shape);
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  const Params& p = ws.params();
  vt::RmsNormGated(ctx, ws["out"], ws["x"], ws["gate"], ws["weight"], {p.F32("eps"), p.Flag("sigmoid")});
}

OracleResult Oracle(const Case& c) {
  const TensorData& x = c.Get("x");
  const int64_t d = x.shape.back();
  const auto out = oracle::RmsNormGated<Bounded>(norm_entry::GatedRows(x), d, x.Values(), entry::Vals(c, "gate"),
                                                 entry::Vals(c, "weight"), c.params.F32("eps"), c.params.Flag("sigmoid"));
  return {{"out", entry::ToExpected(out)}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Bound("rms part as rms_norm; act = 1/(1+expf(-z)) or z/(1+expf(-z)) with expf's "
                        "1-ulp glibc bound; three products: running error bound")}};
}

Case ContiguousGate(const Case& c) {
  Case d = c;
  d.Get("gate") = CopyTensor(c.Get("gate"), "gate", Role::kInput);
  return d;
}

Case AsRank2(const Case& c) {
  Case d = c;
  for (TensorData& t : d.tensors) {
    if (t.shape.size() == 3) {
      t.shape = {t.shape[0] * t.shape[1], t.shape[2]};
      t.SetContiguous();
    }
  }
  return d;
}

}  // namespace

OpSpec Spec_rms_norm_gated() {
  OpSpec s;
  s.name = "rms_norm_gated";
  s.family = "norm";
  s.dtypes = "cpu: x,gate,weight f32/f16/bf16; out f32/bf16; gate token stride may be padded";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = Oracle;
  s.outputs = Outputs;
  s.errors = {mut::DType("gate", vt::DType::kI32),  mut::DType("out", vt::DType::kF16),
              mut::DType("weight", vt::DType::kI64), mut::Dim("gate", 0, 1),
              mut::Dim("weight", 0, 1),              mut::Dim("out", 1, -1),
              mut::AddDim("gate"),                   mut::DropDim("x"),
              mut::InnerStride("gate"),              mut::OverlappingRows("gate"),
              mut::Strided("x"),                     mut::Strided("out"),
              mut::NullData("gate"),                 mut::OtherDevice("gate"),
              mut::Alias("out", "gate"),             mut::Arg("eps", -1.0),
              mut::EmptyInner("x")};
  s.claims = {SameAs("gate_contiguous", "a padded-token-stride gate == its contiguous copy",
                     [](const Params& p) { return p.Int("pad") > 0; }, "rms_norm_gated", ContiguousGate,
                     {{"out", "out"}}),
              SameAs("rank3_as_rank2", "[T,Hv,D] == the [T*Hv, D] view of the same bytes",
                     [](const Params& p) { return p.Int("rank") == 3 && p.Int("pad") == 0; },
                     "rms_norm_gated", AsRank2, {{"out", "out"}}),
              RowSlice({"x", "gate", "out"})};
  return s;
}

}  // namespace vt::conform
