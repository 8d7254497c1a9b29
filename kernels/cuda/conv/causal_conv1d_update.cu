// causal_conv1d_update CUDA kernel (one decode token per row, in place on
// conv_state). A thread per (row b, channel c), channel fastest: it owns
// out[b,c] and the state row of its slot (live slots are distinct, checked by
// the shared validation), so no two threads touch one byte. The window is the
// slot's LEADING K-1 taps at the physical row stride L, then x[b,c], summed in
// the CPU kernel's order (cuda/conv/conv.cuh); the leading taps then roll left
// by one and the last takes the raw x. A NULL slot (index < 0, the padding
// rows of a CUDA-graph batch) zero-fills its out element and touches no state.
#include "cuda/conv/conv.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void UpdateKernel(ConvOperands o, DevPtr idx, int64_t batch, int64_t len) {
  const int64_t width = o.k - 1;
  for (int64_t i = GridStart(); i < batch * o.channels; i += GridStride()) {
    const int64_t b = i / o.channels, c = i % o.channels;
    const int64_t s = idx.p != nullptr ? MetaValue(idx, b) : b;
    if (s < 0) {  // NULL slot: defined output, untouched state
      Store(o.out, i, 0.0f);
      continue;
    }
    float* row = o.state + (s * o.channels + c) * len;
    const float xt = Load(o.x, b * o.x_rs + c);
    Store(o.out, i, ConvWindow(o, c, [&](int64_t j) { return j < width ? row[j] : xt; }));
    // Roll left in ascending order: column j takes column j+1 before j+1 is
    // overwritten.
    for (int64_t j = 0; j + 1 < width; ++j) row[j] = row[j + 1];
    if (width > 0) row[width - 1] = xt;
  }
}

void CausalConv1dUpdateCuda(const ExecContext&, const Tensor& out, const Tensor& x, const Tensor& weight,
                            const Tensor* bias, const Tensor& conv_state, const Tensor* conv_state_indices,
                            const CausalConv1dArgs& args) {
  const ConvOperands o = ConvOperandsOf(out, x, weight, bias, conv_state, args);
  const int64_t batch = x.shape[0], threads = batch * o.channels;
  if (threads == 0) return;
  VT_LAUNCH(UpdateKernel, FlatGrid(threads), FlatThreads(), 0)(o, Dev(conv_state_indices), batch, conv_state.shape[2]);
  CheckLaunch("causal_conv1d_update");
}

}  // namespace

void Register_causal_conv1d_update() {
  RegisterTyped<kernel::CausalConv1dUpdateFn>("causal_conv1d_update", VT_CUDA_BACKEND, &CausalConv1dUpdateCuda);
}

}  // namespace vt::VT_CUDA_NS
