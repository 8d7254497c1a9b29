// Catalog entry: moe_silu_mul (the fused-MoE expert activation: silu(gate) * up over
// flat buffers whose shapes need only agree in element count).
#include "harness/catalog/act/act_entry.h"
#include "oracles/act/moe_silu_mul.h"
#include "vt/ops.h"

namespace vt::conform {

OpSpec Spec_moe_silu_mul() {
  OpSpec s = act::ActSpec({
      .name = "moe_silu_mul",
      .calls = act::Flat("gate", "up", vt::MoeSiluMul, oracle::MoeSiluMul<entry::Bounded>, oracle::MoeSiluMul<float>),
      .rule = Bound("f32: expf(-gate) (glibc, 1 ulp), 1 + that, gate / that, times up: "
                    "running error bound of each f32 step, then one rounding to out "
                    "(docs/tolerance.md)"),
      .dtypes = "cpu: gate, up f32/f16/bf16; out f32/bf16; any ranks, equal element counts",
      .keys = {entry::DrawIn("gate"), entry::DrawIn("up"), entry::DrawOut("out")},
      .draw = act::DrawFlatExp,
      .build = [](Case& c) { act::BuildFlatBinary(c, "gate", "up"); },
  });
  act::FlatBinaryRules(s, {"gate", entry::kFloatIn}, {"up", entry::kFloatIn}, entry::kFloatOut,
                       {mut::DType("gate", vt::DType::kI32), mut::DType("up", vt::DType::kU8),
                        mut::DType("out", vt::DType::kF16), mut::DType("out", vt::DType::kI32)});
  s.values.edges = [](const Params&) { return ExpBands("gate"); };
  // silu_and_mul's claim covers the cross-op identity from the other side.
  return s;
}

}  // namespace vt::conform
