// causal_conv1d_update CPU kernel (one decode token per row, in place on
// conv_state). Contract (validated by the API): x [B,C] F, inner stride 1,
// row stride >= C; out [B,C] f32/bf16 contiguous; weight [C,K]; conv_state
// [N,C,L] f32 contiguous, L >= K-1; without indices N == B, with indices
// every live index < N and live indices distinct.
// Row b reads its slot's LEADING K-1 taps at the physical row stride L (a
// row widened for speculative decoding keeps its other taps untouched):
// acc = bias (or 0), += w[c,j] * state[j] for j < K-1, += w[c,K-1] * x; then
// the leading taps roll left by one and the last takes the raw x. A NULL
// slot (index < 0) zero-fills its out row and touches no state (H-6).
// Split: (row, channel) pairs; each owns one out element and one state row
// (live slots are distinct), so the bytes do not depend on the thread count.
#include <algorithm>
#include <vector>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

template <class XS, class OS>
void UpdateTyped(const ExecContext& ctx, const Tensor& out, const Tensor& x, int64_t k, const std::vector<float>& w,
                 const std::vector<float>& bias, const Tensor& conv_state, const std::vector<int64_t>& slot,
                 bool silu) {
  const int64_t batch = x.shape[0], channels = x.shape[1];
  const int64_t width = k - 1, len = conv_state.shape[2], x_rs = x.stride[0];
  ParallelForRows(ctx, batch * channels, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t b = r / channels, c = r % channels;
      const int64_t s = slot[static_cast<std::size_t>(b)];
      if (s < 0) {  // NULL slot: defined output, untouched state
        OS::Store(out.data, b * channels + c, 0.0f);
        continue;
      }
      const int64_t row = (s * channels + c) * len;
      const float xt = XS::Load(x.data, b * x_rs + c);
      const float* wc = w.data() + c * k;
      float acc = bias.empty() ? 0.0f : bias[static_cast<std::size_t>(c)];
      for (int64_t j = 0; j < width; ++j) acc += wc[j] * F32Elem::Load(conv_state.data, row + j);
      acc += wc[width] * xt;
      OS::Store(out.data, b * channels + c, silu ? SiluF32(acc) : acc);
      for (int64_t j = 0; j + 1 < width; ++j) {
        F32Elem::Store(conv_state.data, row + j, F32Elem::Load(conv_state.data, row + j + 1));
      }
      if (width > 0) F32Elem::Store(conv_state.data, row + width - 1, xt);
    }
  });
}

void CausalConv1dUpdateCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
                           const Tensor* bias, const Tensor& conv_state, const Tensor* conv_state_indices,
                           const CausalConv1dArgs& args) {
  const int64_t batch = x.shape[0];
  std::vector<int64_t> slot(static_cast<std::size_t>(batch));
  for (int64_t b = 0; b < batch; ++b) {
    slot[static_cast<std::size_t>(b)] = conv_state_indices != nullptr ? IntAt(*conv_state_indices, b) : b;
  }
  const std::vector<float> w = WidenAll(&weight), bv = WidenAll(bias);
  WithFloatInOutElem(x.dtype, out.dtype, [&](auto xs, auto os) {
    UpdateTyped<decltype(xs), decltype(os)>(ctx, out, x, weight.shape[1], w, bv, conv_state, slot,
                                            args.silu_activation);
  });
}

}  // namespace

void Register_causal_conv1d_update() {
  RegisterTyped<kernel::CausalConv1dUpdateFn>("causal_conv1d_update", Backend::kCPU, &CausalConv1dUpdateCpu);
}

}  // namespace vt::cpu
