// moe_router_topk CUDA kernel: one block per token (grid-stride over tokens),
// the token's scores in shared memory. The CPU's definition step for step
// (cpu/moe/moe_router_topk.cpp), so the bytes are the CPU's:
//   softmax  m = block max (a NaN never replaces it: any tree gives the same
//            value), ex_j = exp(x_j - m) per thread, s = the sum of ex_j IN
//            INDEX ORDER by one thread (the CPU's f32 rounding sequence; E is
//            at most a few hundred adds), p_j = s > 0 ? ex_j / s : 0, a
//            non-finite p_j -> 0; sigmoid: 1 / (1 + exp(-x_j)) per thread;
//   grouped  sel = score + bias; one thread per group computes its group
//            score in the group's index order; one thread keeps topk_group
//            groups (first unkept group seeds each scan: ties to the lower
//            index); dropped groups' sel -> -inf;
//   top-k    k rounds of a block arg-max over sel with the CPU's tie rule:
//            strict '>' from -inf, the LOWEST index among equal values;
//            the winner's sel -> -inf; the weight is the unbiased score;
//   weights  summed in pick order, renormalised, scaled - by one thread.
#include <cmath>
#include <string>

#include "cuda/core/access.cuh"
#include "cuda/core/reduce.cuh"

namespace vt::VT_CUDA_NS {
namespace {

// A token's scores live in dynamic shared memory: 2 floats per expert plus a
// float and a flag per group, within the 48 KiB every launch may use without
// an opt-in (E up to 3072 in the worst case of one-expert groups).
constexpr std::size_t kMaxSharedBytes = 48 * 1024;

__device__ __forceinline__ bool Finite(float v) { return (Bits(v) & 0x7F800000u) != 0x7F800000u; }

struct Candidate {
  float v;
  int j;  // -1: none (only a value above -inf is a candidate)
};

// The better of two candidates under the CPU's rule: the larger value; among
// equal values the lower index.
__device__ __forceinline__ Candidate Better(Candidate a, Candidate b) {
  if (b.j < 0) return a;
  if (a.j < 0 || b.v > a.v || (b.v == a.v && b.j < a.j)) return b;
  return a;
}

// The arg-max of sel[0, e) over the block. `wv` / `wj` are __shared__ [33]
// scratch; every thread gets the result.
__device__ Candidate BlockArgMax(const float* sel, int64_t e, float* wv, int* wj) {
  Candidate c{-INFINITY, -1};
  for (int64_t j = threadIdx.x; j < e; j += blockDim.x) {
    if (sel[j] > c.v) c = Candidate{sel[j], static_cast<int>(j)};  // ascending j: the first of equals
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    const Candidate o{__shfl_xor_sync(0xffffffffu, c.v, offset), __shfl_xor_sync(0xffffffffu, c.j, offset)};
    c = Better(c, o);
  }
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  if (lane == 0) {
    wv[warp] = c.v;
    wj[warp] = c.j;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    Candidate best{-INFINITY, -1};
    for (unsigned w = 0; w < warps; ++w) best = Better(best, Candidate{wv[w], wj[w]});
    wv[32] = best.v;
    wj[32] = best.j;
  }
  __syncthreads();
  const Candidate best{wv[32], wj[32]};
  __syncthreads();  // the scratch is free again only once every thread has read it
  return best;
}

// The block's maximum of x over [0, e) (NaN skipped); every thread gets it.
__device__ float RowMax(const float* x, int64_t e, float* wv) {
  float m = -INFINITY;
  for (int64_t j = threadIdx.x; j < e; j += blockDim.x) m = x[j] > m ? x[j] : m;
  return BlockMax(m, wv);
}

struct RouterArgs {
  int top_k, num_expert_group, topk_group;
  bool renormalize, sigmoid;
  float routed_scaling_factor;
};

// score[j] = the scoring function of the token's logits (softmax or sigmoid).
__device__ void Scores(DevPtr logits, int64_t row, int64_t e, bool sigmoid, float* score, float* wv) {
  for (int64_t j = threadIdx.x; j < e; j += blockDim.x) score[j] = Load(logits, row * e + j);
  __syncthreads();
  if (sigmoid) {
    for (int64_t j = threadIdx.x; j < e; j += blockDim.x) score[j] = 1.0f / (1.0f + ExpF(-score[j]));
    __syncthreads();
    return;
  }
  const float m = RowMax(score, e, wv);
  for (int64_t j = threadIdx.x; j < e; j += blockDim.x) score[j] = ExpF(score[j] - m);
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int64_t j = 0; j < e; ++j) s = s + score[j];
    wv[32] = s;
  }
  __syncthreads();
  const float s = wv[32];
  for (int64_t j = threadIdx.x; j < e; j += blockDim.x) {
    const float q = s > 0.0f ? score[j] / s : 0.0f;
    score[j] = Finite(q) ? q : 0.0f;
  }
  __syncthreads();  // and wv[32] is read by every thread before its next use
}

// Grouped routing: sel of the experts outside the kept groups -> -inf.
__device__ void KeepGroups(float* sel, float* gscore, int* keep, int64_t e, bool has_bias, const RouterArgs& a) {
  const int64_t ng = a.num_expert_group, gs = e / ng;
  for (int64_t g = threadIdx.x; g < ng; g += blockDim.x) {
    const float* v = sel + g * gs;
    float first = -INFINITY, second = -INFINITY;
    for (int64_t j = 0; j < gs; ++j) {
      if (v[j] > first) {
        second = first;
        first = v[j];
      } else if (v[j] > second) {
        second = v[j];
      }
    }
    gscore[g] = has_bias ? first + second : first;
    keep[g] = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int r = 0; r < a.topk_group; ++r) {
      int64_t best = -1;
      for (int64_t g = 0; g < ng; ++g) {
        if (keep[g]) continue;
        if (best < 0 || gscore[g] > gscore[best]) best = g;
      }
      keep[best] = 1;
    }
  }
  __syncthreads();
  for (int64_t j = threadIdx.x; j < e; j += blockDim.x) {
    if (!keep[j / gs]) sel[j] = -INFINITY;
  }
  __syncthreads();
}

__global__ void RouterKernel(float* weights, int32_t* indices, DevPtr logits, const float* bias, int64_t rows,
                             int64_t e, RouterArgs a) {
  VT_DYNAMIC_SHARED(float, smem);
  float* score = smem;
  float* sel = smem + e;
  float* gscore = smem + 2 * e;
  int* keep = reinterpret_cast<int*>(gscore + (a.num_expert_group > 0 ? a.num_expert_group : 0));
  __shared__ float wv[33];
  __shared__ int wj[33];
  const bool grouped = a.num_expert_group > 0;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    Scores(logits, row, e, grouped && a.sigmoid, score, wv);
    for (int64_t j = threadIdx.x; j < e; j += blockDim.x) sel[j] = bias != nullptr ? score[j] + bias[j] : score[j];
    __syncthreads();
    if (grouped) KeepGroups(sel, gscore, keep, e, bias != nullptr, a);
    float* w = weights + row * a.top_k;
    int32_t* ids = indices + row * a.top_k;
    float sum = 0.0f;  // thread 0's: the weights in pick order
    for (int r = 0; r < a.top_k; ++r) {
      const Candidate best = BlockArgMax(sel, e, wv, wj);
      // No candidate cannot happen (the validation keeps top_k selectable,
      // H-8); expert 0 is the CPU's fallback all the same.
      const int j = best.j < 0 ? 0 : best.j;
      if (threadIdx.x == 0) {
        sel[j] = -INFINITY;
        w[r] = score[j];
        ids[r] = j;
        sum = sum + score[j];
      }
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      if (a.renormalize) {
        const float d = sum > 0.0f ? sum : 1.0f;  // a sum <= 0 or NaN -> 1
        for (int r = 0; r < a.top_k; ++r) w[r] = w[r] / d;
      }
      if (grouped && a.routed_scaling_factor != 1.0f) {
        for (int r = 0; r < a.top_k; ++r) w[r] = w[r] * a.routed_scaling_factor;
      }
    }
    __syncthreads();  // score / sel are the next row's
  }
}

void MoeRouterTopKCuda(const ExecContext&, const Tensor& weights, const Tensor& indices, const Tensor& logits,
                       const MoeRouterTopKArgs& args, const Tensor* bias) {
  const int64_t rows = logits.shape[0], e = logits.shape[1];
  if (rows == 0) return;
  const int64_t ng = args.num_expert_group > 0 ? args.num_expert_group : 0;
  const std::size_t smem =
      static_cast<std::size_t>(2 * e + ng) * sizeof(float) + static_cast<std::size_t>(ng) * sizeof(int);
  if (smem > kMaxSharedBytes) {  // refused before any byte is written
    throw Error("moe_router_topk", "the CUDA kernel holds a token's scores in shared memory: " +
                                       std::to_string(smem) + " bytes for E = " + std::to_string(e) +
                                       " exceed " + std::to_string(kMaxSharedBytes));
  }
  const bool grouped = ng > 0;
  const RouterArgs a{args.top_k, args.num_expert_group, args.topk_group, args.renormalize,
                     args.scoring_func == MoeScoringFunc::kSigmoid, args.routed_scaling_factor};
  VT_LAUNCH(RouterKernel, RowGrid(rows), RowThreads(e), smem)
  (static_cast<float*>(weights.data), static_cast<int32_t*>(indices.data), Dev(logits),
   grouped && bias != nullptr ? static_cast<const float*>(bias->data) : nullptr, rows, e, a);
  CheckLaunch("moe_router_topk");
}

}  // namespace

void Register_moe_router_topk() {
  RegisterTyped<kernel::MoeRouterTopKFn>("moe_router_topk", VT_CUDA_BACKEND, &MoeRouterTopKCuda);
}

}  // namespace vt::VT_CUDA_NS
