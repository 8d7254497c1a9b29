// The two cast kernels (cast_bf16: f32 -> bf16, cast_f32: bf16 -> f32), as
// on the CPU (cpu/glue/cast.h): out holds in's elements in row-major order,
// each moved through f32; `in` may be row-strided and is read through its
// strides. A flat grid over out's elements.
#pragma once

#include "cuda/glue/glue.cuh"

namespace vt::VT_CUDA_NS {

struct CastElement {
  DevPtr out, in;
  View in_view;
  int64_t inner;  // in's innermost extent
  __device__ void operator()(int64_t e) const {
    MoveF32(out, e, in, RowOffset(in_view, e / inner) + e % inner);
  }
};

inline void CastCuda(const char* op, const Tensor& out, const Tensor& in) {
  LaunchForEach(op, out.Numel(), CastElement{Dev(out), Dev(in), ViewOf(in), in.shape[in.rank - 1]});
}

}  // namespace vt::VT_CUDA_NS
