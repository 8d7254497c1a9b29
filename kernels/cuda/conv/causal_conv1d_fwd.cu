// causal_conv1d_fwd CUDA kernel (varlen prefill, in place on conv_state).
// Two launches, in stream order (the second overwrites what the first reads):
//  1. outputs: a thread per (run of kRun tokens of the flat token axis,
//     channel), channel fastest so a warp reads consecutive channels of one x
//     row. The thread finds the sequence of its first token by a binary search
//     of query_start_loc (in device memory) and walks on across sequence ends
//     (empty sequences included). Token t at position p of sequence s reads
//     tap j = token p-(K-1-j) of its own sequence, or - before the sequence
//     start - the OLD state column (K-1)+(p-(K-1-j)) when has_initial_state[s],
//     else 0: the CPU kernel's window, summed in its order (cuda/conv/conv.cuh).
//  2. state: a thread per (sequence, channel) writes the new row (the last K-1
//     raw x values, shifted old taps or zeros in front for a sequence shorter
//     than K-1), in place.
// Every out element and state row has one writer: no atomics, bytes
// independent of the launch shape.
#include "cuda/conv/conv.cuh"

namespace vt::VT_CUDA_NS {
namespace {

constexpr int64_t kRun = 16;  // tokens per thread in launch 1

// The sequence s holding flat token t: qsl[s] <= t < qsl[s+1] (t < qsl[n]).
__device__ int64_t SequenceOf(DevPtr qsl, int64_t n, int64_t t) {
  int64_t lo = 0, hi = n;  // qsl[lo] <= t < qsl[hi]
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (MetaValue(qsl, mid) <= t) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

__global__ void FwdOutKernel(ConvOperands o, DevPtr qsl, DevPtr init, int64_t n, int64_t tokens) {
  const int64_t width = o.k - 1, runs = (tokens + kRun - 1) / kRun;
  for (int64_t i = GridStart(); i < runs * o.channels; i += GridStride()) {
    const int64_t run = i / o.channels, c = i % o.channels;
    const int64_t t0 = run * kRun, t1 = t0 + kRun < tokens ? t0 + kRun : tokens;
    int64_t s = SequenceOf(qsl, n, t0);
    int64_t begin = MetaValue(qsl, s), end = MetaValue(qsl, s + 1);
    for (int64_t t = t0; t < t1; ++t) {
      while (t >= end) {  // the next non-empty sequence (t < qsl[n] bounds s)
        ++s;
        begin = end;
        end = MetaValue(qsl, s + 1);
      }
      const bool has_init = MetaValue(init, s) != 0;
      const int64_t pos = t - begin;
      const float* old = o.state + (s * o.channels + c) * width;
      const float y = ConvWindow(o, c, [&](int64_t j) {
        const int64_t src = pos - (width - j);  // position of tap j in the sequence
        if (src >= 0) return Load(o.x, (begin + src) * o.x_rs + c);
        return has_init ? old[width + src] : 0.0f;
      });
      Store(o.out, t * o.channels + c, y);
    }
  }
}

// Column j of the new row holds position len-(K-1)+j. Written in ascending j:
// a column before the sequence reads old column len+j >= j, never one this
// loop has already overwritten (len == 0 rewrites each column with itself).
__global__ void FwdStateKernel(ConvOperands o, DevPtr qsl, DevPtr init, int64_t n) {
  const int64_t width = o.k - 1;
  for (int64_t i = GridStart(); i < n * o.channels; i += GridStride()) {
    const int64_t s = i / o.channels, c = i % o.channels;
    const int64_t begin = MetaValue(qsl, s), len = MetaValue(qsl, s + 1) - begin;
    const bool has_init = MetaValue(init, s) != 0;
    float* row = o.state + i * width;
    for (int64_t j = 0; j < width; ++j) {
      const int64_t src = len - width + j;
      float v = 0.0f;
      if (src >= 0) {
        v = Load(o.x, (begin + src) * o.x_rs + c);
      } else if (has_init) {
        v = row[width + src];
      }
      row[j] = v;
    }
  }
}

void CausalConv1dFwdCuda(const ExecContext&, const Tensor& out, const Tensor& x, const Tensor& weight,
                         const Tensor* bias, const Tensor& conv_state, const Tensor& query_start_loc,
                         const Tensor& has_initial_state, const CausalConv1dArgs& args) {
  const ConvOperands o = ConvOperandsOf(out, x, weight, bias, conv_state, args);
  const int64_t n = conv_state.shape[0], tokens = x.shape[0];
  const int64_t out_threads = (tokens + kRun - 1) / kRun * o.channels, state_threads = n * o.channels;
  if (out_threads > 0) {
    VT_LAUNCH(FwdOutKernel, FlatGrid(out_threads), FlatThreads(), 0)
    (o, Dev(query_start_loc), Dev(has_initial_state), n, tokens);
    CheckLaunch("causal_conv1d_fwd");
  }
  if (state_threads > 0 && o.k > 1) {
    VT_LAUNCH(FwdStateKernel, FlatGrid(state_threads), FlatThreads(), 0)
    (o, Dev(query_start_loc), Dev(has_initial_state), n);
    CheckLaunch("causal_conv1d_fwd");
  }
}

}  // namespace

void Register_causal_conv1d_fwd() {
  RegisterTyped<kernel::CausalConv1dFwdFn>("causal_conv1d_fwd", VT_CUDA_BACKEND, &CausalConv1dFwdCuda);
}

}  // namespace vt::VT_CUDA_NS
