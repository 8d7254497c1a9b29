// rms_norm_quant_fp8 CUDA kernel: rms_norm's row (residual stream included),
// the normed value rounded to bf16 (optionally stored to out_bf16), then
// e4m3(bf16 * (1 / input_scale)). One block per row.
#include "cuda/norm/norm_row.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void RmsNormQuantFp8Kernel(uint8_t* out, uint16_t* out_bf16, DevPtr x, DevPtr w, DevPtr res, int64_t rows,
                                      int64_t h, float eps, bool gemma, float inv_scale) {
  __shared__ double scratch[33];
  ForRmsRows(x, w, res, rows, h, eps, gemma, scratch, [&](int64_t i, float y) {
    const uint16_t b = F32ToBf16(y);
    if (out_bf16 != nullptr) out_bf16[i] = b;
    out[i] = F32ToFp8E4M3(Bf16ToF32(b) * inv_scale);
  });
}

void RmsNormQuantFp8Cuda(const ExecContext&, const Tensor& out_fp8, const Tensor* out_bf16, const Tensor& x,
                         const Tensor& w, const RmsNormArgs& args, const Tensor* residual, float input_scale) {
  const int64_t rows = x.shape[0], h = x.shape[1];
  if (rows == 0) return;
  const float inv_scale = 1.0f / input_scale;
  VT_LAUNCH(RmsNormQuantFp8Kernel, RowGrid(rows), RowThreads(h), 0)
  (static_cast<uint8_t*>(out_fp8.data), out_bf16 == nullptr ? nullptr : static_cast<uint16_t*>(out_bf16->data),
   Dev(x), Dev(w), Dev(residual), rows, h, args.eps, args.gemma, inv_scale);
  CheckLaunch("rms_norm_quant_fp8");
}

}  // namespace

void Register_rms_norm_quant_fp8() {
  RegisterTyped<kernel::RmsNormQuantFp8Fn>("rms_norm_quant_fp8", VT_CUDA_BACKEND, &RmsNormQuantFp8Cuda);
}

}  // namespace vt::VT_CUDA_NS
