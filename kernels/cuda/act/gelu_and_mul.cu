// gelu_and_mul CUDA kernel: out[t,j] = gelu_tanh(x[t,j]) * x[t,D+j] with
// gelu_tanh(g) = 0.5 * g * (1 + tanh(sqrt(2/pi) * (g + 0.044715 * g^3))),
// evaluated left to right as the definition; one block per row (LaunchGlu).
#include "cuda/act/elementwise.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct GeluAndMulF {
  __device__ float operator()(float g, float up) const {
    const float kSqrt2OverPi = 0.7978845608028654f;
    const float kCubic = 0.044715f;
    const float inner = kSqrt2OverPi * (g + kCubic * g * g * g);
    const float gelu = 0.5f * g * (1.0f + TanhF(inner));
    return gelu * up;
  }
};

void GeluAndMulCuda(const ExecContext&, const Tensor& out, const Tensor& x) {
  LaunchGlu("gelu_and_mul", out, x, GeluAndMulF{});
}

}  // namespace

void Register_gelu_and_mul() { RegisterTyped<kernel::UnaryFn>("gelu_and_mul", VT_CUDA_BACKEND, &GeluAndMulCuda); }

}  // namespace vt::VT_CUDA_NS
