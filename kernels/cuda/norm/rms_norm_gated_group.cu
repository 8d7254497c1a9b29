// rms_norm_gated_group CUDA kernel (Mamba2 gated group norm):
//   v = x * silu(gate) in f32
//   no weight:   out = round_through(x.dtype, v)               (flat, elementwise)
//   with weight: one block per (row, group) segment (one thread per segment
//                below 32 columns): inv from a reduction of v^2 over the
//                group (mean),
//                out = w * round_through(x.dtype, v * inv)
// v is recomputed in the second pass: the same f32 operations give the same bits.
#include "cuda/core/access.cuh"
#include "cuda/core/reduce.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__device__ __forceinline__ float GatedV(DevPtr x, DevPtr gate, int64_t i) { return Load(x, i) * SiluF(Load(gate, i)); }

__global__ void GatedGroupPlainKernel(DevPtr out, DevPtr x, DevPtr gate, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    Store(out, i, RoundThrough(x.dt, GatedV(x, gate, i)));
  }
}

__global__ void GatedGroupNormKernel(DevPtr out, DevPtr x, DevPtr gate, DevPtr w, int64_t segments,
                                     int64_t n_groups, int64_t group, float eps) {
  __shared__ double scratch[33];
  for (int64_t s = blockIdx.x; s < segments; s += gridDim.x) {
    const int64_t col0 = (s % n_groups) * group;  // the group's first column (weight index)
    const int64_t base = s * group;               // rows are contiguous: segment s starts at s * group
    double acc = 0.0;
    for (int64_t j = threadIdx.x; j < group; j += blockDim.x) {
      const float v = GatedV(x, gate, base + j);
      const float sq = v * v;
      acc += static_cast<double>(sq);
    }
    const float sumsq = static_cast<float>(BlockSum(acc, scratch));
    const float inv = 1.0f / SqrtF(sumsq / static_cast<float>(group) + eps);
    for (int64_t j = threadIdx.x; j < group; j += blockDim.x) {
      const float normed = RoundThrough(x.dt, GatedV(x, gate, base + j) * inv);
      Store(out, base + j, Load(w, col0 + j) * normed);
    }
  }
}

// Groups narrower than a warp: one thread per segment, sequential over its
// few columns (still a double sum rounded once, like the block path). A block
// per tiny segment would spend its time in barriers.
__global__ void GatedGroupSmallKernel(DevPtr out, DevPtr x, DevPtr gate, DevPtr w, int64_t segments,
                                      int64_t n_groups, int64_t group, float eps) {
  for (int64_t s = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; s < segments;
       s += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t col0 = (s % n_groups) * group, base = s * group;
    double acc = 0.0;
    for (int64_t j = 0; j < group; ++j) {
      const float v = GatedV(x, gate, base + j);
      const float sq = v * v;
      acc += static_cast<double>(sq);
    }
    const float sumsq = static_cast<float>(acc);
    const float inv = 1.0f / SqrtF(sumsq / static_cast<float>(group) + eps);
    for (int64_t j = 0; j < group; ++j) {
      const float normed = RoundThrough(x.dt, GatedV(x, gate, base + j) * inv);
      Store(out, base + j, Load(w, col0 + j) * normed);
    }
  }
}

void RmsNormGatedGroupCuda(const ExecContext&, const Tensor& out, const Tensor& x, const Tensor& gate,
                           const Tensor* w, const RmsNormGatedGroupArgs& args) {
  const int64_t n = x.Numel();
  if (n == 0) return;
  if (w == nullptr) {
    VT_LAUNCH(GatedGroupPlainKernel, FlatGrid(n), FlatThreads(), 0)(Dev(out), Dev(x), Dev(gate), n);
    CheckLaunch("rms_norm_gated_group");
    return;
  }
  const int64_t hidden = x.shape[x.rank - 1];
  const int64_t group = hidden / args.n_groups;
  const int64_t segments = n / group;
  if (group < 32) {
    VT_LAUNCH(GatedGroupSmallKernel, FlatGrid(segments), FlatThreads(), 0)
    (Dev(out), Dev(x), Dev(gate), Dev(w), segments, static_cast<int64_t>(args.n_groups), group, args.eps);
    CheckLaunch("rms_norm_gated_group");
    return;
  }
  VT_LAUNCH(GatedGroupNormKernel, RowGrid(segments), RowThreads(group), 0)
  (Dev(out), Dev(x), Dev(gate), Dev(w), segments, static_cast<int64_t>(args.n_groups), group, args.eps);
  CheckLaunch("rms_norm_gated_group");
}

}  // namespace

void Register_rms_norm_gated_group() {
  RegisterTyped<kernel::RmsNormGatedGroupFn>("rms_norm_gated_group", VT_CUDA_BACKEND, &RmsNormGatedGroupCuda);
}

}  // namespace vt::VT_CUDA_NS
