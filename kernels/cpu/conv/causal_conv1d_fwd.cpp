// causal_conv1d_fwd CPU kernel (varlen prefill, in place on conv_state).
// Contract (validated by the API): x [T,C] F with inner stride 1 and row
// stride >= C; out [T,C] f32/bf16 contiguous; weight [C,K] contiguous;
// conv_state [N,C,K-1] f32 contiguous; query_start_loc tiles [0,T) and is
// non-decreasing; no operand overlaps a written one.
// Per (sequence s, channel c), token t of the sequence: the window's tap j is
// token t-(K-1-j); a tap before the sequence start reads the OLD state column
// (K-1)+(t-(K-1-j)) when has_initial_state[s], else 0. acc starts at the bias
// (or 0) and adds w[c,j] * tap for j = 0..K-1 in order (the spec's order; f32).
// The new state row holds the last K-1 raw x values of the sequence, shifted
// old state (or 0) in front when the sequence is shorter than K-1. The old row
// is copied first because the outputs read it.
// Split: (sequence, channel) pairs; each owns its out column slice and its
// state row, so the bytes do not depend on the thread count.
#include <vector>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

template <class XS, class OS>
void FwdTyped(const ExecContext& ctx, const Tensor& out, const Tensor& x, int64_t k, const std::vector<float>& w,
              const std::vector<float>& bias, const Tensor& conv_state, const std::vector<int64_t>& qsl,
              const std::vector<bool>& init, bool silu) {
  const int64_t n = conv_state.shape[0], channels = x.shape[1];
  const int64_t width = k - 1, x_rs = x.stride[0];
  ParallelForRows(ctx, n * channels, [&](int64_t r0, int64_t r1) {
    std::vector<float> old(static_cast<std::size_t>(width));
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t s = r / channels, c = r % channels;
      const int64_t begin = qsl[static_cast<std::size_t>(s)];
      const int64_t len = qsl[static_cast<std::size_t>(s) + 1] - begin;
      const bool has_init = init[static_cast<std::size_t>(s)];
      const int64_t row = (s * channels + c) * width;
      for (int64_t j = 0; j < width; ++j) old[static_cast<std::size_t>(j)] = F32Elem::Load(conv_state.data, row + j);
      const float b = bias.empty() ? 0.0f : bias[static_cast<std::size_t>(c)];
      const float* wc = w.data() + c * k;
      for (int64_t t = 0; t < len; ++t) {
        float acc = b;
        for (int64_t j = 0; j < k; ++j) {
          const int64_t src = t - (width - j);  // token of tap j
          float v = 0.0f;
          if (src >= 0) {
            v = XS::Load(x.data, (begin + src) * x_rs + c);
          } else if (has_init) {
            v = old[static_cast<std::size_t>(width + src)];
          }
          acc += wc[j] * v;
        }
        OS::Store(out.data, (begin + t) * channels + c, silu ? SiluF32(acc) : acc);
      }
      for (int64_t j = 0; j < width; ++j) {
        const int64_t src = len - width + j;  // token held by new column j
        float v = 0.0f;
        if (src >= 0) {
          v = XS::Load(x.data, (begin + src) * x_rs + c);
        } else if (has_init) {
          v = old[static_cast<std::size_t>(width + src)];
        }
        F32Elem::Store(conv_state.data, row + j, v);
      }
    }
  });
}

void CausalConv1dFwdCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
                        const Tensor* bias, const Tensor& conv_state, const Tensor& query_start_loc,
                        const Tensor& has_initial_state, const CausalConv1dArgs& args) {
  const int64_t n = conv_state.shape[0];
  std::vector<int64_t> qsl(static_cast<std::size_t>(n + 1));
  for (int64_t i = 0; i <= n; ++i) qsl[static_cast<std::size_t>(i)] = IntAt(query_start_loc, i);
  std::vector<bool> init(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) init[static_cast<std::size_t>(i)] = IntAt(has_initial_state, i) != 0;
  const std::vector<float> w = WidenAll(&weight), b = WidenAll(bias);
  WithFloatInOutElem(x.dtype, out.dtype, [&](auto xs, auto os) {
    FwdTyped<decltype(xs), decltype(os)>(ctx, out, x, weight.shape[1], w, b, conv_state, qsl, init, args.silu_activation);
  });
}

}  // namespace

void Register_causal_conv1d_fwd() {
  RegisterTyped<kernel::CausalConv1dFwdFn>("causal_conv1d_fwd", Backend::kCPU, &CausalConv1dFwdCpu);
}

}  // namespace vt::cpu
