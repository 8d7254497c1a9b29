// rms_norm after vLLM's RMSNorm / GemmaRMSNorm.forward_native (layernorm.py):
//   [fused add]  s = f32(x) + f32(residual); residual <- s in its dtype
//   variance = mean(v^2 over the hidden dim); v * rsqrt(variance + eps)
//   RMSNorm: (.. ).to(dtype) * w        Gemma: (.. * (1 + w)).to(dtype)
// The float64 reference keeps the op's own rounding point: the normalisation
// reads the residual AS STORED (the CUDA fused_add_rms_norm reads it back;
// forward_native keeps its f32 sum - that difference is the in-dtype
// variant's, informative only). The in-dtype variant is forward_native itself:
// f32 math, the normalised value rounded to the output dtype before the
// weight product (RMSNorm) or after it (Gemma).
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_rms_norm(const Input& in) {
  at::Tensor x = Load(in, "x");
  const at::Tensor w = Load(in, "weight");
  const bool gemma = in.Flag("gemma");
  const double eps = in.F32("eps");
  const vt::DType out_dt = in.Get("out").dtype;
  Result r;
  at::Tensor x32 = LoadNative(in, "x").to(at::kFloat);
  if (in.Has("residual")) {
    const vt::DType res_dt = in.Get("residual").dtype;
    const at::Tensor stored = RoundTo(RoundF32(x + Load(in, "residual")), res_dt);
    r["residual"] = Out(stored);
    x = stored;
    x32 = x32 + LoadNative(in, "residual").to(at::kFloat);
  }
  const at::Tensor scale = gemma ? w + 1.0 : w;
  const at::Tensor inv = at::rsqrt(MeanSquare(x) + eps);
  const at::Tensor out = x * inv * scale;

  const at::Tensor n32 = x32 * at::rsqrt(MeanSquare(x32) + static_cast<float>(eps));
  // torch's own type promotion (bf16 * f32 -> f32) is forward_native's.
  const at::Tensor wn = LoadNative(in, "weight");
  const at::ScalarType od = TorchType(out_dt);
  const at::Tensor native = gemma ? (n32 * (wn.to(at::kFloat) + 1.0f)).to(od) : (n32.to(od) * wn).to(od);
  r["out"] = Out(out, native.to(at::kDouble));
  return r;
}

}  // namespace vt::torchref
