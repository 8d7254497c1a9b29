// l2_norm CUDA kernel: one block per row (leading dims flattened);
// y = x * (1 / sqrt(sum(x^2) + eps)), the plain sum, a block reduction.
#include "cuda/core/access.cuh"
#include "cuda/core/reduce.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void L2NormKernel(DevPtr out, DevPtr x, int64_t rows, int64_t d, float eps) {
  __shared__ double scratch[33];
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const int64_t base = row * d;
    double acc = 0.0;
    for (int64_t j = threadIdx.x; j < d; j += blockDim.x) {
      const float v = Load(x, base + j);
      const float sq = v * v;
      acc += static_cast<double>(sq);
    }
    const float sumsq = static_cast<float>(BlockSum(acc, scratch));
    const float inv = 1.0f / SqrtF(sumsq + eps);
    for (int64_t j = threadIdx.x; j < d; j += blockDim.x) Store(out, base + j, Load(x, base + j) * inv);
  }
}

void L2NormCuda(const ExecContext&, const Tensor& out, const Tensor& x, const L2NormArgs& args) {
  const int64_t d = x.shape[x.rank - 1];
  const int64_t rows = x.Numel() / d;
  if (rows == 0) return;
  VT_LAUNCH(L2NormKernel, RowGrid(rows), RowThreads(d), 0)(Dev(out), Dev(x), rows, d, args.eps);
  CheckLaunch("l2_norm");
}

}  // namespace

void Register_l2_norm() { RegisterTyped<kernel::L2NormFn>("l2_norm", VT_CUDA_BACKEND, &L2NormCuda); }

}  // namespace vt::VT_CUDA_NS
