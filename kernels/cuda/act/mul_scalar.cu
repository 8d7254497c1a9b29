// mul_scalar CUDA kernel: out = x * s over the flat order (LaunchFlat); f32,
// one rounding at the store.
#include "cuda/act/elementwise.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct MulScalarF {
  DevPtr x;
  float s;
  __device__ float operator()(int64_t i) const { return Load(x, i) * s; }
};

void MulScalarCuda(const ExecContext&, const Tensor& out, const Tensor& x, float s) {
  LaunchFlat("mul_scalar", out, MulScalarF{Dev(x), s});
}

}  // namespace

void Register_mul_scalar() { RegisterTyped<kernel::ScalarUnaryFn>("mul_scalar", VT_CUDA_BACKEND, &MulScalarCuda); }

}  // namespace vt::VT_CUDA_NS
