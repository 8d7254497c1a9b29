// cast_f32 CUDA kernel: see cuda/glue/cast.cuh.
#include "cuda/glue/cast.cuh"

namespace vt::VT_CUDA_NS {
namespace {

void CastF32Cuda(const ExecContext&, const Tensor& out, const Tensor& in) { CastCuda("cast_f32", out, in); }

}  // namespace

void Register_cast_f32() { RegisterTyped<kernel::UnaryFn>("cast_f32", VT_CUDA_BACKEND, &CastF32Cuda); }

}  // namespace vt::VT_CUDA_NS
