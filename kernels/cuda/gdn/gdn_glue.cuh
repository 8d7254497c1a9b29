// Pieces of the GDN glue CUDA kernels (gdn_g_beta, gdn_conv_split,
// gdn_post_conv): the gate of cpu/gdn/gdn_gate.h per (token, value head) and
// the [q | k | v] column split of a conv row. Same f32 operations in the same
// order as the CPU, so gdn_post_conv stays the composition of the other ops.
#pragma once

#include "api/gdn/gdn_kernel_types.h"
#include "cuda/core/access.cuh"
#include "cuda/core/for_each.cuh"

namespace vt::VT_CUDA_NS {

// The gate of token t, value head h: g = (-exp(a_log[h])) * softplus(a + dt_bias[h]),
// beta = 1 / (1 + exp(-b)). a, b [T,Hv] share a dtype (row strides free);
// a_log, dt_bias [Hv] f32; g, beta [T,Hv] f32 contiguous. One thread per
// (t, h): each output element has one writer.
struct GateElement {
  float *g, *beta;
  DevPtr a, b;
  const float *a_log, *dt_bias;
  int64_t hv, a_rs, b_rs;
  __device__ void operator()(int64_t i) const {
    const int64_t t = i / hv, h = i % hv;
    const float neg_rate = -ExpF(a_log[h]);
    g[i] = neg_rate * SoftplusGuard20(Load(a, t * a_rs + h) + dt_bias[h]);
    beta[i] = 1.0f / (1.0f + ExpF(-Load(b, t * b_rs + h)));
  }
};

inline GateElement GateOf(const Tensor& g_out, const Tensor& beta_out, const Tensor& a, const Tensor& b,
                          const Tensor& a_log, const Tensor& dt_bias) {
  return GateElement{static_cast<float*>(g_out.data), static_cast<float*>(beta_out.data), Dev(a), Dev(b),
                     static_cast<const float*>(a_log.data), static_cast<const float*>(dt_bias.data), g_out.shape[1],
                     a.stride[0], b.stride[0]};
}

// Column c of a conv row [q | k | v] (key_dim, key_dim, value_dim wide): the
// part it lands in (0 q, 1 k, 2 v) and its column there.
struct ConvColumn {
  int part;
  int64_t col;
};
__device__ __forceinline__ ConvColumn SplitColumnOf(int64_t c, int64_t key_dim) {
  if (c < key_dim) return {0, c};
  if (c < 2 * key_dim) return {1, c - key_dim};
  return {2, c - 2 * key_dim};
}

}  // namespace vt::VT_CUDA_NS
