// silu_and_mul CUDA kernel: out[t,j] = silu(x[t,j]) * x[t,D+j], one block per
// row (LaunchGlu); f32, one rounding at the store.
#include "cuda/act/elementwise.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct SiluAndMulF {
  __device__ float operator()(float gate, float up) const { return SiluF(gate) * up; }
};

void SiluAndMulCuda(const ExecContext&, const Tensor& out, const Tensor& x) {
  LaunchGlu("silu_and_mul", out, x, SiluAndMulF{});
}

}  // namespace

void Register_silu_and_mul() { RegisterTyped<kernel::UnaryFn>("silu_and_mul", VT_CUDA_BACKEND, &SiluAndMulCuda); }

}  // namespace vt::VT_CUDA_NS
