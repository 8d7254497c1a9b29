// gelu_and_mul CUDA kernel: out[t,j] = gelu_tanh(x[t,j]) * x[t,D+j] with
// gelu_tanh(g) = 0.5 * g * (1 + tanh(sqrt(2/pi) * (g + 0.044715 * g^3))),
// evaluated left to right as the definition; one block per row.
#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void GeluAndMulKernel(DevPtr out, DevPtr x, int64_t rows, int64_t d) {
  const float kSqrt2OverPi = 0.7978845608028654f;
  const float kCubic = 0.044715f;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    for (int64_t j = threadIdx.x; j < d; j += blockDim.x) {
      const float g = Load(x, row * 2 * d + j);
      const float up = Load(x, row * 2 * d + d + j);
      const float inner = kSqrt2OverPi * (g + kCubic * g * g * g);
      const float gelu = 0.5f * g * (1.0f + TanhF(inner));
      Store(out, row * d + j, gelu * up);
    }
  }
}

void GeluAndMulCuda(const ExecContext&, const Tensor& out, const Tensor& x) {
  const int64_t rows = out.shape[0], d = out.shape[1];
  if (rows == 0 || d == 0) return;
  VT_LAUNCH(GeluAndMulKernel, RowGrid(rows), RowThreads(d), 0)(Dev(out), Dev(x), rows, d);
  CheckLaunch("gelu_and_mul");
}

}  // namespace

void Register_gelu_and_mul() { RegisterTyped<kernel::UnaryFn>("gelu_and_mul", VT_CUDA_BACKEND, &GeluAndMulCuda); }

}  // namespace vt::VT_CUDA_NS
