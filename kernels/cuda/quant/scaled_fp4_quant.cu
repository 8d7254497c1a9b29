// scaled_fp4_quant CUDA kernel (vLLM scaled_fp4_quant): the shared NVFP4
// quantizer (fp4_quant.cuh: a half-warp per 16-element group) on x, linear or
// CUTLASS-swizzled scales. The CPU's bytes. Validated upstream: x [M,K]
// f32/f16/bf16 contiguous, K % 16 == 0; outputs u8 contiguous, disjoint.
#include "cuda/quant/fp4_quant.cuh"

namespace vt::VT_CUDA_NS {
namespace {

void ScaledFp4QuantCuda(const ExecContext&, const Tensor& out_packed, const Tensor& out_scale, const Tensor& x,
                        float gsi, Fp4ScaleLayout layout) {
  const int64_t k = x.shape[1];
  fp4::LaunchFp4Quant("scaled_fp4_quant", out_packed, out_scale, x.shape[0], k, gsi, layout,
                      fp4::PlainInput{Dev(x), k});
}

}  // namespace

void Register_scaled_fp4_quant() {
  RegisterTyped<kernel::Fp4QuantFn>("scaled_fp4_quant", VT_CUDA_BACKEND, &ScaledFp4QuantCuda);
}

}  // namespace vt::VT_CUDA_NS
