// shared_expert_gate CUDA kernel: out[t,c] = sigmoid(gl[t]) * sd[t,c], one
// block per token row; the gate is computed once per row, as the definition.
#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void SharedExpertGateKernel(DevPtr out, DevPtr sd, DevPtr gl, int64_t rows, int64_t h) {
  for (int64_t t = blockIdx.x; t < rows; t += gridDim.x) {
    const float g = SigmoidF(Load(gl, t));
    for (int64_t c = threadIdx.x; c < h; c += blockDim.x) Store(out, t * h + c, g * Load(sd, t * h + c));
  }
}

void SharedExpertGateCuda(const ExecContext&, const Tensor& out, const Tensor& sd, const Tensor& gl) {
  const int64_t rows = out.shape[0], h = out.shape[1];
  if (rows == 0 || h == 0) return;
  VT_LAUNCH(SharedExpertGateKernel, RowGrid(rows), RowThreads(h), 0)(Dev(out), Dev(sd), Dev(gl), rows, h);
  CheckLaunch("shared_expert_gate");
}

}  // namespace

void Register_shared_expert_gate() {
  RegisterTyped<kernel::BinaryFn>("shared_expert_gate", VT_CUDA_BACKEND, &SharedExpertGateCuda);
}

}  // namespace vt::VT_CUDA_NS
