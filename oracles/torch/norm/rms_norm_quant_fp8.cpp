// rms_norm_quant_fp8 after the composition vLLM's fusion pass replaces
// (rms_quant_fusion.py): RMSNorm.forward_native (fused residual add when
// given) stored to bf16, then QuantFP8 static per-tensor forward_native
// (x.float() * scale.reciprocal(), clamp +-448, to e4m3). The residual is read
// back as stored, as in the rms_norm reference.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_rms_norm_quant_fp8(const Input& in) {
  at::Tensor x = Load(in, "x");
  const at::Tensor w = Load(in, "weight");
  Result r;
  if (in.Has("residual")) {
    x = RoundTo(RoundF32(x + Load(in, "residual")), in.Get("residual").dtype);
    r["residual"] = Out(x);
  }
  const at::Tensor scale = in.Flag("gemma") ? w + 1.0 : w;
  const at::Tensor b = RoundTo(x * at::rsqrt(MeanSquare(x) + in.F32("eps")) * scale, vt::DType::kBF16);
  if (in.Has("out_bf16")) r["out_bf16"] = Out(b);
  r["out_fp8"] = Out(StaticFp8Value(b, in.Num("input_scale")));
  return r;
}

}  // namespace vt::torchref
