// moe_silu_mul CUDA kernel: out = silu(gate) * up over the flat order
// (LaunchFlat); f32, one rounding at the store.
#include "cuda/act/elementwise.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct MoeSiluMulF {
  DevPtr gate, up;
  __device__ float operator()(int64_t i) const { return SiluF(Load(gate, i)) * Load(up, i); }
};

void MoeSiluMulCuda(const ExecContext&, const Tensor& out, const Tensor& gate, const Tensor& up) {
  LaunchFlat("moe_silu_mul", out, MoeSiluMulF{Dev(gate), Dev(up)});
}

}  // namespace

void Register_moe_silu_mul() { RegisterTyped<kernel::BinaryFn>("moe_silu_mul", VT_CUDA_BACKEND, &MoeSiluMulCuda); }

}  // namespace vt::VT_CUDA_NS
