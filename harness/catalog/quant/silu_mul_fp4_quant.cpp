// Catalog entry: silu_mul_fp4_quant (vLLM's SiLU-and-mul + NVFP4 quant fusion,
// two-input form: gate and up as separate [M,I] tensors), DEFINED as
// moe_silu_mul into bf16, then scaled_fp4_quant. The quantizer shape is built
// by quant::Fp4QuantizerSpec (fp4_quantizer.h).
#include "harness/catalog/act/act_entry.h"
#include "harness/catalog/quant/fp4_quantizer.h"
#include "oracles/quant/silu_mul_fp4_quant.h"
#include "vt/ops.h"

namespace vt::conform {

OpSpec Spec_silu_mul_fp4_quant() {
  quant::Fp4Quantizer q;
  q.name = "silu_mul_fp4_quant";
  q.dtypes = "cpu: gate, up one of f32/f16/bf16 [M,I], I % 16 == 0; outputs as scaled_fp4_quant";
  q.inputs = {{"gate", entry::kFloatIn}, {"up", entry::kFloatIn, /*dtype_of_first=*/true}};
  q.scale = act::ExpScale();
  q.magnitude = quant::ProductMagnitude;
  q.calls = quant::Calls(vt::SiluMulFp4Quant, oracle::SiluMulFp4Quant<entry::Bounded>, oracle::SiluMulFp4Quant<float>);
  q.exp_edges = "gate";
  q.errors = {mut::Dim("gate", 0, 1),
              mut::Dim("up", 1, 16),  // up [M, I+16]: still a multiple of 16, not gate's shape
              mut::Dim("up", 0, 1)};
  q.activation = quant::Fp4Activation{"moe_silu_mul", "moe_silu_mul_then_quant", {{"gate", "gate"}, {"up", "up"}}};
  return quant::Fp4QuantizerSpec(q);
}

// vt-fuzz --upstream: the activation then ref_nvfp4_quant (vt_regen/live.py
// _fused_fp4); bounded at quant::kFusedFp4MaxElements quantized elements
// (fp4_quantizer.h says why).
UpstreamMap UpstreamMap_silu_mul_fp4_quant() {
  return quant::Fp4UpstreamMap("silu_mul_fp4_quant",
                               {"gate", "up"}, true, quant::kFusedFp4MaxElements, quant::kFusedFp4Why);
}

}  // namespace vt::conform
