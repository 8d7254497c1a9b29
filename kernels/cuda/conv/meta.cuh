// Metadata reads in device code for the conv and state families: the values
// of i8 / i32 vectors (query_start_loc, has_initial_state, slot indices,
// accepted counts) that the shared validation has already checked through
// api::HostValues. Kernels read them from device memory themselves; the host
// launchers never do.
#pragma once

#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {

// Element i of a contiguous rank-1 i8 / i32 tensor.
__device__ __forceinline__ int64_t MetaValue(DevPtr t, int64_t i) {
  return t.dt == DType::kI8 ? static_cast<const int8_t*>(t.p)[i] : static_cast<const int32_t*>(t.p)[i];
}

// The first index of a grid-stride loop over [0, n) and its stride.
__device__ __forceinline__ int64_t GridStart() { return blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; }
__device__ __forceinline__ int64_t GridStride() { return static_cast<int64_t>(gridDim.x) * blockDim.x; }

}  // namespace vt::VT_CUDA_NS
