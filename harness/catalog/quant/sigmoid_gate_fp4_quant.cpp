// Catalog entry: sigmoid_gate_fp4_quant (Qwen3-Next: attn * sigmoid(gate),
// rounded to bf16, then o_proj's NVFP4 activation quant; an Inductor fusion
// upstream, composite by definition here). The quantizer shape is built by
// quant::Fp4QuantizerSpec (fp4_quantizer.h).
#include "harness/catalog/act/act_entry.h"
#include "harness/catalog/quant/fp4_quantizer.h"
#include "oracles/quant/sigmoid_gate_fp4_quant.h"
#include "vt/ops.h"

namespace vt::conform {

OpSpec Spec_sigmoid_gate_fp4_quant() {
  quant::Fp4Quantizer q;
  q.name = "sigmoid_gate_fp4_quant";
  q.dtypes = "cpu: attn f32/bf16 [M,K], gate f32 [M,K], K % 16 == 0; outputs as scaled_fp4_quant";
  // gate: f32 only, the sigmoid input is never pre-rounded.
  q.inputs = {{"attn", entry::kF32BF16}, {"gate", entry::kF32}};
  q.scale = act::ExpScale();
  q.calls = quant::Calls(vt::SigmoidGateFp4Quant, oracle::SigmoidGateFp4Quant<entry::Bounded>,
                         oracle::SigmoidGateFp4Quant<float>);
  q.exp_edges = "gate";
  q.errors = {mut::Dim("attn", 0, 1), mut::Dim("gate", 0, 1), mut::Dim("gate", 1, 16)};
  q.activation =
      quant::Fp4Activation{"sigmoid_gate_bf16", "sigmoid_gate_then_quant", {{"attn", "attn"}, {"gate", "gate"}}};
  return quant::Fp4QuantizerSpec(q);
}

// vt-fuzz --upstream: the activation then ref_nvfp4_quant (vt_regen/live.py
// _fused_fp4); bounded at quant::kFusedFp4MaxElements quantized elements
// (fp4_quantizer.h says why).
UpstreamMap UpstreamMap_sigmoid_gate_fp4_quant() {
  return quant::Fp4UpstreamMap("sigmoid_gate_fp4_quant",
                               {"attn", "gate"}, true, quant::kFusedFp4MaxElements, quant::kFusedFp4Why);
}

}  // namespace vt::conform
