// rms_norm_gated CUDA kernel: one block per flat row; inv from a block
// reduction of the row's squares (mean), then ((x * inv) * w) * act(gate).
#include "cuda/norm/gated_rows.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void RmsNormGatedKernel(DevPtr out, DevPtr x, GateView gate, DevPtr w, int64_t rows, int64_t d,
                                   float eps, bool sigmoid_gate) {
  __shared__ double scratch[33];
  ForGatedRows(x, gate, w, rows, d, eps, sigmoid_gate, scratch, [&](int64_t i, float v) { Store(out, i, v); });
}

void RmsNormGatedCuda(const ExecContext&, const Tensor& out, const Tensor& x, const Tensor& gate, const Tensor& w,
                      const RmsNormGatedArgs& args) {
  const int64_t d = x.shape[x.rank - 1];
  const int64_t rows = x.Numel() / d;
  if (rows == 0) return;
  VT_LAUNCH(RmsNormGatedKernel, RowGrid(rows), RowThreads(d), 0)
  (Dev(out), Dev(x), Gate(gate), Dev(w), rows, d, args.eps, args.sigmoid_gate);
  CheckLaunch("rms_norm_gated");
}

}  // namespace

void Register_rms_norm_gated() {
  RegisterTyped<kernel::RmsNormGatedFn>("rms_norm_gated", VT_CUDA_BACKEND, &RmsNormGatedCuda);
}

}  // namespace vt::VT_CUDA_NS
