// soft_cap CUDA kernel: out = cap * tanh(x / cap), true division, over the
// flat order (LaunchFlat); f32, one rounding at the store.
#include "cuda/act/elementwise.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct SoftCapF {
  DevPtr x;
  float cap;
  __device__ float operator()(int64_t i) const { return cap * TanhF(Load(x, i) / cap); }
};

void SoftCapCuda(const ExecContext&, const Tensor& out, const Tensor& x, float cap) {
  LaunchFlat("soft_cap", out, SoftCapF{Dev(x), cap});
}

}  // namespace

void Register_soft_cap() { RegisterTyped<kernel::ScalarUnaryFn>("soft_cap", VT_CUDA_BACKEND, &SoftCapCuda); }

}  // namespace vt::VT_CUDA_NS
