// moe_relu2 CUDA kernel: out = max(x, 0)^2, squared in f32, over the flat
// order (LaunchFlat); one rounding at the store.
#include "cuda/act/elementwise.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct MoeRelu2F {
  DevPtr x;
  __device__ float operator()(int64_t i) const {
    const float f = Load(x, i);
    const float v = f > 0.0f ? f : 0.0f;
    return v * v;
  }
};

void MoeRelu2Cuda(const ExecContext&, const Tensor& out, const Tensor& x) {
  LaunchFlat("moe_relu2", out, MoeRelu2F{Dev(x)});
}

}  // namespace

void Register_moe_relu2() { RegisterTyped<kernel::UnaryFn>("moe_relu2", VT_CUDA_BACKEND, &MoeRelu2Cuda); }

}  // namespace vt::VT_CUDA_NS
