// Catalog entry: scaled_fp4_quant (vLLM scaled_fp4_quant: NVFP4 activation
// quantization with e4m3 block scales per 16, linear or CUTLASS-swizzled).
// The quantizer shape is built by quant::Fp4QuantizerSpec (fp4_quantizer.h);
// golden cases: vt-golden regen's ref_nvfp4_quant (docs/goldens.md).
#include "harness/catalog/quant/fp4_quantizer.h"
#include "oracles/quant/scaled_fp4_quant.h"
#include "vt/ops.h"

#include <limits>

namespace vt::conform {
namespace local_scaled_fp4_quant {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// Knob "aim", drawn with gsi. aim=ties: every group's block scale a power of
// two and its elements on the e2m1 ties and the saturation edge
// (quant::AimAtTies); needs gsi = 2^n. aim=midpoints: each group's amax moved
// so that the f32 scale s lands on an e4m3 rounding midpoint
// (quant::AimAtScaleMidpoints).
void DrawAimAndGsi(Params& p, double scale) {
  const std::string aim = *gen::Pick(std::vector<std::string>{"none", "ties", "midpoints"});
  p.Set("gsi", aim == "ties" ? *gen::Pick(std::vector<double>{1.0, 64.0, 0.125})
                             : quant::GsiValue(*quant::GsiKnob(), scale));
  p.Set("aim", aim);
}

void Aim(Case& c) {
  const Params& p = c.params;
  if (p.Str("aim") == "ties" && p.Num("gsi") > 0.0) quant::AimAtTies(c.Get("x"), p.seed, p.Num("gsi"));
  if (p.Str("aim") == "midpoints") quant::AimAtScaleMidpoints(c.Get("x"), p.seed, static_cast<float>(p.Num("gsi")));
}

}  // namespace
}  // namespace local_scaled_fp4_quant

OpSpec Spec_scaled_fp4_quant() {
  using namespace local_scaled_fp4_quant;
  quant::Fp4Quantizer q;
  q.name = "scaled_fp4_quant";
  q.dtypes = "cpu: x f32/f16/bf16 [M,K], K % 16 == 0; out_packed u8 [M,K/2]; out_scale u8 (e4m3) linear "
             "[M,K/16] or swizzled [round_up(M,128), round_up(K/16,4)]";
  q.inputs = {{"x", entry::kFloatIn}};
  q.draw_gsi = DrawAimAndGsi;
  q.after_build = Aim;
  q.calls = quant::Calls(vt::ScaledFp4Quant, oracle::ScaledFp4Quant<entry::Bounded>, oracle::ScaledFp4Quant<float>);
  q.errors = {mut::Dim("x", 0, 1)};
  return quant::Fp4QuantizerSpec(q);
}

UpstreamMap UpstreamMap_scaled_fp4_quant() {
  using namespace local_scaled_fp4_quant;
  // vLLM's ref_nvfp4_quant (plain torch, vt_regen/live.py scaled_fp4_quant):
  // no interpreter, no size bound.
  return quant::Fp4UpstreamMap("scaled_fp4_quant", {"x"}, false, std::numeric_limits<int64_t>::max(), "");
}

}  // namespace vt::conform
