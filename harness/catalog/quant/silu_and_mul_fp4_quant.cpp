// Catalog entry: silu_and_mul_fp4_quant (vLLM silu_and_mul_nvfp4_quant: the
// one-input form, gate_up [M, 2I] with the gate half first), DEFINED as
// SiluAndMul's f32 activation rounded once to bf16 (upstream's act_bf16),
// then ref_nvfp4_quant. The quantizer shape is built by
// quant::Fp4QuantizerSpec (fp4_quantizer.h).
#include "harness/catalog/act/act_entry.h"
#include "harness/catalog/quant/fp4_quantizer.h"
#include "oracles/quant/silu_and_mul_fp4_quant.h"
#include "vt/ops.h"

namespace vt::conform {

OpSpec Spec_silu_and_mul_fp4_quant() {
  quant::Fp4Quantizer q;
  q.name = "silu_and_mul_fp4_quant";
  q.dtypes = "cpu: gate_up f32/bf16 [M,2I], I % 16 == 0; outputs as scaled_fp4_quant with K = I";
  q.inputs = {{"gate_up", entry::kF32BF16}};
  q.per_i = 2;
  q.scale = act::ExpScale();
  q.magnitude = quant::ProductMagnitude;
  q.calls = quant::Calls(vt::SiluAndMulFp4Quant, oracle::SiluAndMulFp4Quant<entry::Bounded>,
                         oracle::SiluAndMulFp4Quant<float>);
  q.exp_edges = "gate_up";
  q.errors = {mut::Dim("gate_up", 1, 1),  // odd: no [M, 2I] split
              mut::Dim("gate_up", 0, 1)};
  q.activation = quant::Fp4Activation{"silu_and_mul", "silu_and_mul_then_quant", {{"gate_up", "x"}}};
  return quant::Fp4QuantizerSpec(q);
}

// vt-fuzz --upstream: the activation then ref_nvfp4_quant (vt_regen/live.py
// _fused_fp4); bounded at quant::kFusedFp4MaxElements quantized elements
// (fp4_quantizer.h says why).
UpstreamMap UpstreamMap_silu_and_mul_fp4_quant() {
  return quant::Fp4UpstreamMap("silu_and_mul_fp4_quant",
                               {"gate_up"}, true, quant::kFusedFp4MaxElements, quant::kFusedFp4Why);
}

}  // namespace vt::conform
