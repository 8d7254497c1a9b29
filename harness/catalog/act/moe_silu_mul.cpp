// Catalog entry: moe_silu_mul (the fused-MoE expert activation: silu(gate) * up over
// flat buffers whose shapes need only agree in element count).
#include "harness/catalog/act/act_entry.h"
#include "oracles/act/moe_silu_mul.h"
#include "vt/ops.h"

namespace vt::conform {
namespace {

using entry::Bounded;

rc::Gen<Params> Gen(Tier tier) {
  return rc::gen::exec([tier] {
    Params p("moe_silu_mul");
    p.Set("gate", *gen::FloatIn());
    p.Set("up", *gen::FloatIn());
    p.Set("out", *gen::FloatOut());
    p.Set("T", *gen::Rows(tier));
    p.Set("D", *gen::Width(tier));
    p.Set("shape", *act::FlatShapeKnob());  // exercises the "equal numel" contract
    p.Set("scale", *act::ExpScale());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(Case& c) { act::BuildFlatBinary(c, "gate", "up"); }

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::MoeSiluMul(ctx, ws["out"], ws["gate"], ws["up"]);
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  return {{"out", oracle::MoeSiluMul<S>(c.Get("gate").Values(), c.Get("up").Values())}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Bound("f32: expf(-gate) (glibc, 1 ulp), 1 + that, gate / that, times up: "
                        "running error bound of each f32 step, then one rounding to out "
                        "(docs/tolerance.md)")}};
}

}  // namespace

OpSpec Spec_moe_silu_mul() {
  OpSpec s;
  s.name = "moe_silu_mul";
  s.family = "act";
  s.dtypes = "cpu: gate, up f32/f16/bf16; out f32/bf16; any ranks, equal element counts";
  s.gen = Gen;
  s.build = Build;
  s.run = Run;
  s.oracle = entry::Bounds(Eval<entry::Bounded>);
  s.oracle_f32 = entry::F32(Eval<float>);
  s.outputs = Outputs;
  // Ranks are free (flat op), so there is no rank error; element counts are the shape contract.
  s.contract = {{entry::Operand("gate", entry::kFloatIn, entry::kAnyShape), entry::Operand("up", entry::kFloatIn, entry::kAnyShape), entry::Written("out", entry::kFloatOut, entry::kAnyShape)}, {}};
  s.values.specials = {{"gate"}, {"up"}};
  s.values.edges = [](const Params&) { return ExpBands("gate"); };
  s.errors = {mut::DType("gate", vt::DType::kI32), mut::DType("up", vt::DType::kU8),
              mut::DType("out", vt::DType::kF16),  mut::DType("out", vt::DType::kI32),
              mut::Dim("out", 0, 1),               mut::Dim("gate", 0, 1),
              mut::Dim("up", 0, -1),               mut::Strided("gate"),
              mut::Strided("up"),                  mut::Strided("out"),
              mut::NullData("gate"),               mut::NullData("up"),
              mut::NullData("out"),                mut::OtherDevice("up"),
              mut::Alias("out", "gate"),           mut::Alias("out", "up")};
  // silu_and_mul's claim covers the cross-op identity from the other side.
  s.claims = {FlatSlice({"gate", "up", "out"})};
  return s;
}

}  // namespace vt::conform
