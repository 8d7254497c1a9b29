// causal_conv1d_spec_update CUDA kernel (speculative decode, in place on
// conv_state). A thread per (request r, channel c), channel fastest; it owns
// the out column slice of r's tokens and the state row of r's slot (live
// slots distinct, checked by the shared validation). Request r (slot idx[r],
// tokens lo..hi-1, n = hi-lo, off = accepted[r]-1 - the rollback to the last
// accepted token of the previous step) reads the stream
//   S = state[off .. off+K-2] ++ x[lo..hi-1]
// and token t's output is the window S[t..t+K-1] in the CPU's order
// (cuda/conv/conv.cuh). ALL outputs are computed before the row is rewritten
// (they read its old taps): state[off+1 .. off+L-n] (0 past the row's end),
// then the n raw x values. A NULL slot zero-fills its out rows and touches no
// state; a request with no tokens does nothing.
#include "cuda/conv/conv.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void SpecUpdateKernel(ConvOperands o, DevPtr idx, DevPtr accepted, DevPtr cu, int64_t requests,
                                 int64_t len) {
  const int64_t width = o.k - 1;
  for (int64_t i = GridStart(); i < requests * o.channels; i += GridStride()) {
    const int64_t r = i / o.channels, c = i % o.channels;
    const int64_t lo = MetaValue(cu, r), n = MetaValue(cu, r + 1) - lo, s = MetaValue(idx, r);
    if (s < 0) {  // NULL slot: defined output, untouched state
      for (int64_t t = 0; t < n; ++t) Store(o.out, (lo + t) * o.channels + c, 0.0f);
      continue;
    }
    if (n == 0) continue;  // a padded request: nothing to read or shift
    const int64_t off = MetaValue(accepted, r) - 1;
    float* row = o.state + (s * o.channels + c) * len;
    auto x_at = [&](int64_t t) { return Load(o.x, (lo + t) * o.x_rs + c); };
    for (int64_t t = 0; t < n; ++t) {
      const float y = ConvWindow(o, c, [&](int64_t j) {
        const int64_t q = t + j;  // stream position of tap j
        if (q >= width) return x_at(q - width);
        return off + q < len ? row[off + q] : 0.0f;
      });
      Store(o.out, (lo + t) * o.channels + c, y);
    }
    // The new row, in place in ascending order: column j < keep takes old
    // column off+1+j > j, which this loop has not overwritten yet.
    const int64_t keep = len - n;
    for (int64_t j = 0; j < keep; ++j) row[j] = off + 1 + j < len ? row[off + 1 + j] : 0.0f;
    for (int64_t t = 0; t < n; ++t) row[keep + t] = x_at(t);
  }
}

void CausalConv1dSpecUpdateCuda(const ExecContext&, const Tensor& out, const Tensor& x, const Tensor& weight,
                                const Tensor* bias, const Tensor& conv_state, const Tensor& conv_state_indices,
                                const Tensor& num_accepted_tokens, const Tensor& cu_seqlens,
                                const CausalConv1dArgs& args) {
  const ConvOperands o = ConvOperandsOf(out, x, weight, bias, conv_state, args);
  const int64_t requests = cu_seqlens.shape[0] - 1, threads = requests * o.channels;
  if (threads <= 0) return;
  VT_LAUNCH(SpecUpdateKernel, FlatGrid(threads), FlatThreads(), 0)
  (o, Dev(conv_state_indices), Dev(num_accepted_tokens), Dev(cu_seqlens), requests, conv_state.shape[2]);
  CheckLaunch("causal_conv1d_spec_update");
}

}  // namespace

void Register_causal_conv1d_spec_update() {
  RegisterTyped<kernel::CausalConv1dSpecUpdateFn>("causal_conv1d_spec_update", VT_CUDA_BACKEND,
                                                  &CausalConv1dSpecUpdateCuda);
}

}  // namespace vt::VT_CUDA_NS
