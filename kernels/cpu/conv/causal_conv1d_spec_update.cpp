// causal_conv1d_spec_update CPU kernel (speculative decode, in place on
// conv_state). Contract (validated by the API): x [T,C] F row-padded; out
// [T,C] f32/bf16 contiguous; weight [C,K], K >= 2; conv_state [N,C,L] f32
// contiguous, L = (K-1) + (max_query_len-1) >= K-1; cu_seqlens tiles [0,T)
// with lengths in [0, max_query_len]; accepted in [1, max_query_len]; live
// indices < N and distinct.
// Request r (slot idx[r], tokens lo..hi-1, n = hi-lo, off = accepted-1)
// reads the stream S = state[off .. off+K-2] ++ x[lo..hi-1]; token t's output
// is act(bias + sum_j w[c,j] * S[t+j]) (bias or 0 first, j in order, f32).
// The new row is state[off+1 .. off+L-n] (0 past the row's end) followed by
// the n raw x values: shifted by one tap per step, so the NEXT call's offset
// selects the window ending at its last accepted token. A NULL slot
// zero-fills the request's out rows and touches no state (H-6).
// Split: (request, channel) pairs; each owns its out column slice and its
// state row (live slots are distinct): bytes independent of thread count.
#include <vector>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

struct Requests {
  std::vector<int64_t> cu, slot, accepted;
};

template <class XS, class OS>
void SpecTyped(const ExecContext& ctx, const Tensor& out, const Tensor& x, int64_t k, const std::vector<float>& w,
               const std::vector<float>& bias, const Tensor& conv_state, const Requests& q, bool silu) {
  const int64_t channels = x.shape[1], width = k - 1, len = conv_state.shape[2], x_rs = x.stride[0];
  const int64_t requests = static_cast<int64_t>(q.slot.size());
  ParallelForRows(ctx, requests * channels, [&](int64_t r0, int64_t r1) {
    std::vector<float> stream, next(static_cast<std::size_t>(len));
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t i = r / channels, c = r % channels;
      const int64_t lo = q.cu[static_cast<std::size_t>(i)], hi = q.cu[static_cast<std::size_t>(i) + 1];
      const int64_t n = hi - lo, s = q.slot[static_cast<std::size_t>(i)];
      if (s < 0) {  // NULL slot: defined output, untouched state
        for (int64_t t = lo; t < hi; ++t) OS::Store(out.data, t * channels + c, 0.0f);
        continue;
      }
      if (n == 0) continue;  // a padded request: nothing to read or shift
      const int64_t off = q.accepted[static_cast<std::size_t>(i)] - 1;
      const int64_t row = (s * channels + c) * len;
      auto old_tap = [&](int64_t col) { return col < len ? F32Elem::Load(conv_state.data, row + col) : 0.0f; };
      stream.assign(static_cast<std::size_t>(width + n), 0.0f);
      for (int64_t j = 0; j < width; ++j) stream[static_cast<std::size_t>(j)] = old_tap(off + j);
      for (int64_t t = 0; t < n; ++t) stream[static_cast<std::size_t>(width + t)] = XS::Load(x.data, (lo + t) * x_rs + c);
      const float* wc = w.data() + c * k;
      for (int64_t t = 0; t < n; ++t) {
        float acc = bias.empty() ? 0.0f : bias[static_cast<std::size_t>(c)];
        for (int64_t j = 0; j < k; ++j) acc += wc[j] * stream[static_cast<std::size_t>(t + j)];
        OS::Store(out.data, (lo + t) * channels + c, silu ? SiluF32(acc) : acc);
      }
      const int64_t keep = len - n;
      for (int64_t j = 0; j < keep; ++j) next[static_cast<std::size_t>(j)] = old_tap(off + j + 1);
      for (int64_t t = 0; t < n; ++t) next[static_cast<std::size_t>(keep + t)] = stream[static_cast<std::size_t>(width + t)];
      for (int64_t j = 0; j < len; ++j) F32Elem::Store(conv_state.data, row + j, next[static_cast<std::size_t>(j)]);
    }
  });
}

void CausalConv1dSpecUpdateCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
                               const Tensor* bias, const Tensor& conv_state, const Tensor& conv_state_indices,
                               const Tensor& num_accepted_tokens, const Tensor& cu_seqlens,
                               const CausalConv1dArgs& args) {
  const int64_t requests = cu_seqlens.shape[0] - 1;
  Requests q;
  for (int64_t i = 0; i <= requests; ++i) q.cu.push_back(IntAt(cu_seqlens, i));
  for (int64_t i = 0; i < requests; ++i) {
    q.slot.push_back(IntAt(conv_state_indices, i));
    q.accepted.push_back(IntAt(num_accepted_tokens, i));
  }
  const std::vector<float> w = WidenAll(&weight), bv = WidenAll(bias);
  WithFloatInOutElem(x.dtype, out.dtype, [&](auto xs, auto os) {
    SpecTyped<decltype(xs), decltype(os)>(ctx, out, x, weight.shape[1], w, bv, conv_state, q, args.silu_activation);
  });
}

}  // namespace

void Register_causal_conv1d_spec_update() {
  RegisterTyped<kernel::CausalConv1dSpecUpdateFn>("causal_conv1d_spec_update", Backend::kCPU,
                                                  &CausalConv1dSpecUpdateCpu);
}

}  // namespace vt::cpu
