// cast_bf16 CUDA kernel: see cuda/glue/cast.cuh.
#include "cuda/glue/cast.cuh"

namespace vt::VT_CUDA_NS {
namespace {

void CastBf16Cuda(const ExecContext&, const Tensor& out, const Tensor& in) { CastCuda("cast_bf16", out, in); }

}  // namespace

void Register_cast_bf16() { RegisterTyped<kernel::UnaryFn>("cast_bf16", VT_CUDA_BACKEND, &CastBf16Cuda); }

}  // namespace vt::VT_CUDA_NS
