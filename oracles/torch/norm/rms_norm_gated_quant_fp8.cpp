// rms_norm_gated_quant_fp8: the gated-norm epilogue fused with static fp8
// quant (an Inductor fusion upstream, no single op): RMSNormGated.forward_static
// stored to bf16, then QuantFP8 static per-tensor forward_native.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_rms_norm_gated_quant_fp8(const Input& in) {
  const at::Tensor x = Load(in, "x");
  const at::Tensor z = Load(in, "gate");
  const at::Tensor w = Load(in, "weight");
  const at::Tensor act = in.Flag("sigmoid") ? Sigmoid(z) : Silu(z);
  const at::Tensor gated = x * at::rsqrt(MeanSquare(x) + in.F32("eps")) * w * act;
  const at::Tensor b = RoundTo(gated, vt::DType::kBF16);
  return {{"out_fp8", Out(StaticFp8Value(b, in.Num("input_scale")))}};
}

}  // namespace vt::torchref
