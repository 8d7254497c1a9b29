// Pieces the three causal conv CUDA kernels share: the operands every conv
// reads (by value, a kernel argument) and one output's window sum in the CPU
// kernels' order - acc starts at the bias (or 0) and adds w[c,j] * tap(j) for
// j = 0..K-1, each product and sum one f32 rounding (--fmad=false), then silu
// or identity - so the CUDA bytes are the CPU's. The taps come from the
// caller (x, the old state row, or zeros), which is where the three ops
// differ. K is a runtime value without an upper bound in the contract, so a
// tap is a load (coalesced: neighbouring threads take neighbouring channels)
// rather than a register ring of fixed size.
#pragma once

#include "cuda/conv/meta.cuh"

namespace vt::VT_CUDA_NS {

struct ConvOperands {
  DevPtr out, x, weight, bias;  // bias.p == nullptr: no bias
  float* state;                 // conv_state [N, C, L] f32 contiguous
  int64_t channels, k, x_rs;    // C, K, x's row stride (elements)
  bool silu;
};

inline ConvOperands ConvOperandsOf(const Tensor& out, const Tensor& x, const Tensor& weight, const Tensor* bias,
                                   const Tensor& conv_state, const CausalConv1dArgs& args) {
  return ConvOperands{Dev(out),  Dev(x),     Dev(weight), Dev(bias), static_cast<float*>(conv_state.data),
                      x.shape[1], weight.shape[1], x.stride[0], args.silu_activation};
}

// act(bias[c] (or 0) + sum_j w[c,j] * tap(j)), in tap order.
template <class Tap>
__device__ __forceinline__ float ConvWindow(const ConvOperands& o, int64_t c, Tap tap) {
  float acc = o.bias.p != nullptr ? Load(o.bias, c) : 0.0f;
  for (int64_t j = 0; j < o.k; ++j) acc += Load(o.weight, c * o.k + j) * tap(j);
  return o.silu ? SiluF(acc) : acc;
}

}  // namespace vt::VT_CUDA_NS
