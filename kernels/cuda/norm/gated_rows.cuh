// Pieces shared by the gated norm CUDA kernels (rms_norm_gated and its fp8
// variant): the gate row of flat row i (token i / Hv, head i % Hv for a
// rank-3 gate whose token stride may be padded) and the gated value
// ((x * inv) * w) * act(gate).
#pragma once

#include "cuda/core/access.cuh"
#include "cuda/norm/norm_row.cuh"

namespace vt::VT_CUDA_NS {

struct GateView {
  DevPtr p;
  int rank;
  int64_t heads, stride0, stride1;
};
inline GateView Gate(const Tensor& g) {
  return GateView{Dev(g), g.rank, g.rank == 3 ? g.shape[1] : 1, g.stride[0], g.rank == 3 ? g.stride[1] : 0};
}
__device__ __forceinline__ int64_t GateRowBase(const GateView& g, int64_t i) {
  if (g.rank == 3) return (i / g.heads) * g.stride0 + (i % g.heads) * g.stride1;
  return i * g.stride0;
}
__device__ __forceinline__ float GatedValue(float xv, float inv, float wv, float z, bool sigmoid_gate) {
  const float act = sigmoid_gate ? SigmoidF(z) : SiluF(z);
  return xv * inv * wv * act;
}

// The flat rows of a gated norm kernel, one block per row: inv from the
// row's squares (mean), then emit(i, gated value) for each element i.
template <class Emit>
__device__ __forceinline__ void ForGatedRows(DevPtr x, GateView gate, DevPtr w, int64_t rows, int64_t d, float eps,
                                             bool sigmoid_gate, double* scratch, Emit emit) {
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const int64_t base = row * d;
    const float inv = RowInvRms(d, eps, scratch, [&](int64_t j) { return Load(x, base + j); });
    const int64_t gbase = GateRowBase(gate, row);
    for (int64_t j = threadIdx.x; j < d; j += blockDim.x) {
      emit(base + j, GatedValue(Load(x, base + j), inv, Load(w, j), Load(gate.p, gbase + j), sigmoid_gate));
    }
  }
}

}  // namespace vt::VT_CUDA_NS
