// silu_and_mul CUDA kernel: out[t,j] = silu(x[t,j]) * x[t,D+j], one block per
// row, a block-stride loop over the row's D outputs; f32, one rounding at the store.
#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void SiluAndMulKernel(DevPtr out, DevPtr x, int64_t rows, int64_t d) {
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    for (int64_t j = threadIdx.x; j < d; j += blockDim.x) {
      const float gate = Load(x, row * 2 * d + j);
      const float up = Load(x, row * 2 * d + d + j);
      Store(out, row * d + j, SiluF(gate) * up);
    }
  }
}

void SiluAndMulCuda(const ExecContext&, const Tensor& out, const Tensor& x) {
  const int64_t rows = out.shape[0], d = out.shape[1];
  if (rows == 0 || d == 0) return;
  VT_LAUNCH(SiluAndMulKernel, RowGrid(rows), RowThreads(d), 0)(Dev(out), Dev(x), rows, d);
  CheckLaunch("silu_and_mul");
}

}  // namespace

void Register_silu_and_mul() { RegisterTyped<kernel::UnaryFn>("silu_and_mul", VT_CUDA_BACKEND, &SiluAndMulCuda); }

}  // namespace vt::VT_CUDA_NS
