// rms_norm_gated_quant_fp8 CUDA kernel: rms_norm_gated's value rounded to
// bf16, then e4m3(bf16 * (1 / input_scale)). One block per flat row.
#include "cuda/norm/gated_rows.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void RmsNormGatedQuantFp8Kernel(uint8_t* out, DevPtr x, GateView gate, DevPtr w, int64_t rows, int64_t d,
                                           float eps, bool sigmoid_gate, float inv_scale) {
  __shared__ double scratch[33];
  ForGatedRows(x, gate, w, rows, d, eps, sigmoid_gate, scratch,
               [&](int64_t i, float v) { out[i] = F32ToFp8E4M3(Bf16ToF32(F32ToBf16(v)) * inv_scale); });
}

void RmsNormGatedQuantFp8Cuda(const ExecContext&, const Tensor& out_fp8, const Tensor& x, const Tensor& gate,
                              const Tensor& w, const RmsNormGatedArgs& args, float input_scale) {
  const int64_t d = x.shape[x.rank - 1];
  const int64_t rows = x.Numel() / d;
  if (rows == 0) return;
  const float inv_scale = 1.0f / input_scale;  // one reciprocal on the host, as the CPU kernel
  VT_LAUNCH(RmsNormGatedQuantFp8Kernel, RowGrid(rows), RowThreads(d), 0)
  (static_cast<uint8_t*>(out_fp8.data), Dev(x), Gate(gate), Dev(w), rows, d, args.eps, args.sigmoid_gate, inv_scale);
  CheckLaunch("rms_norm_gated_quant_fp8");
}

}  // namespace

void Register_rms_norm_gated_quant_fp8() {
  RegisterTyped<kernel::RmsNormGatedQuantFp8Fn>("rms_norm_gated_quant_fp8", VT_CUDA_BACKEND,
                                                &RmsNormGatedQuantFp8Cuda);
}

}  // namespace vt::VT_CUDA_NS
