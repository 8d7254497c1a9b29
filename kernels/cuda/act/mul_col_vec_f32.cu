// mul_col_vec_f32 CUDA kernel, IN PLACE: x[m,n] *= col[n]. One block per row;
// rows may be padded (row stride >= N): the padding is never touched.
#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void MulColVecKernel(DevPtr x, const float* col, int64_t rows, int64_t n, int64_t row_stride) {
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const int64_t base = r * row_stride;
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) Store(x, base + j, Load(x, base + j) * col[j]);
  }
}

void MulColVecF32Cuda(const ExecContext&, const Tensor& x, const Tensor& col) {
  const int64_t rows = x.shape[0], n = x.shape[1];
  if (rows == 0 || n == 0) return;
  VT_LAUNCH(MulColVecKernel, RowGrid(rows), RowThreads(n), 0)
  (Dev(x), static_cast<const float*>(col.data), rows, n, x.stride[0]);
  CheckLaunch("mul_col_vec_f32");
}

}  // namespace

void Register_mul_col_vec_f32() {
  RegisterTyped<kernel::InPlaceColFn>("mul_col_vec_f32", VT_CUDA_BACKEND, &MulColVecF32Cuda);
}

}  // namespace vt::VT_CUDA_NS
