// rms_norm CUDA kernel: one block per row. With a residual, each thread
// stores residual = round(x + residual) for its columns and re-reads the
// rounded value (the value the definition normalises); the row's sum of
// squares is a block reduction (cuda/core/reduce.cuh); then
// out = v * inv * w (gemma: w + 1), inv = 1 / sqrt(sumsq / H + eps).
#include "cuda/norm/norm_row.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void RmsNormKernel(DevPtr out, DevPtr x, DevPtr w, DevPtr res, int64_t rows, int64_t h, float eps,
                              bool gemma) {
  __shared__ double scratch[33];
  ForRmsRows(x, w, res, rows, h, eps, gemma, scratch, [&](int64_t i, float y) { Store(out, i, y); });
}

void RmsNormCuda(const ExecContext&, const Tensor& out, const Tensor& x, const Tensor& w, const RmsNormArgs& args,
                 const Tensor* residual) {
  const int64_t rows = x.shape[0], h = x.shape[1];
  if (rows == 0) return;
  VT_LAUNCH(RmsNormKernel, RowGrid(rows), RowThreads(h), 0)
  (Dev(out), Dev(x), Dev(w), Dev(residual), rows, h, args.eps, args.gemma);
  CheckLaunch("rms_norm");
}

}  // namespace

void Register_rms_norm() { RegisterTyped<kernel::RmsNormFn>("rms_norm", VT_CUDA_BACKEND, &RmsNormCuda); }

}  // namespace vt::VT_CUDA_NS
