// Catalog entry: sigmoid_gate_bf16 (Qwen3-Next's attention output gate:
// attn * sigmoid(gate), stored as bf16).
#include "harness/catalog/act/act_entry.h"
#include "oracles/act/sigmoid_gate_bf16.h"
#include "vt/ops.h"

namespace vt::conform {

OpSpec Spec_sigmoid_gate_bf16() {
  OpSpec s = act::ActSpec({
      .name = "sigmoid_gate_bf16",
      .calls = act::Flat("attn", "gate", vt::SigmoidGateBf16, oracle::SigmoidGate<entry::Bounded>,
                         oracle::SigmoidGate<float>),
      .rule = Bound("f32: expf(-gate) (glibc, 1 ulp), 1 + that, 1 / that, attn * that: "
                    "running error bound of each f32 step, then one rounding to bf16 "
                    "(docs/tolerance.md)"),
      .dtypes = "cpu: attn f32/bf16; gate f32; out bf16; any ranks, equal element counts",
      // gate f32: the sigmoid input is never pre-rounded; out: bf16 only.
      .keys = {entry::DrawOneOf("attn", {"f32", "bf16"}), entry::Fixed("gate", "f32"), entry::Fixed("out", "bf16")},
      .draw = act::DrawFlatExp,
      .build = [](Case& c) { act::BuildFlatBinary(c, "attn", "gate"); },
  });
  act::FlatBinaryRules(s, {"attn", entry::kF32BF16}, {"gate", entry::kF32}, entry::kBF16,
                       {mut::DType("attn", vt::DType::kF16), mut::DType("attn", vt::DType::kI32),
                        mut::DType("gate", vt::DType::kBF16), mut::DType("gate", vt::DType::kF16),
                        mut::DType("out", vt::DType::kF32), mut::DType("out", vt::DType::kF16)});
  s.values.edges = [](const Params&) { return ExpBands("gate"); };
  // shared_expert_gate's claim covers the cross-op identity from the other side.
  return s;
}

}  // namespace vt::conform
