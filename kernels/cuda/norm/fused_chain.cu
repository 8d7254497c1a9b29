// fused_chain CUDA kernel (the Tier-1 interpreter): one block per row walks
// the recipe; each step is a block-stride loop over the row's columns,
// rounding every store to its slot's dtype. A barrier separates the steps: a
// step may read (rms_norm reads the whole row) what other threads stored in
// the step before. rms_norm steps reduce with BlockSum (cuda/core/reduce.cuh).
#include "cuda/norm/norm_row.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct Slots {
  DevPtr t[kNumFusedSlots];
};

__device__ __forceinline__ float LoadSlot(const Slots& s, int slot, int64_t row, int64_t h, int64_t j) {
  return slot == kSlotWeight ? Load(s.t[slot], j) : Load(s.t[slot], row * h + j);
}

__global__ void FusedChainKernel(Slots s, FusedRecipe recipe, int64_t rows, int64_t h, float eps) {
  __shared__ double scratch[33];
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    for (int k = 0; k < recipe.n; ++k) {
      const FusedStep st = recipe.steps[k];
      const DevPtr dst = s.t[st.out];
      float inv = 0.0f;
      if (st.op == FusedOp::kRmsNorm) {
        inv = RowInvRms(h, eps, scratch, [&](int64_t j) { return LoadSlot(s, st.in0, row, h, j); });
      }
      for (int64_t j = threadIdx.x; j < h; j += blockDim.x) {
        const float a = LoadSlot(s, st.in0, row, h, j);
        float v = 0.0f;
        switch (st.op) {
          case FusedOp::kAdd: v = a + LoadSlot(s, st.in1, row, h, j); break;
          case FusedOp::kMul: v = a * LoadSlot(s, st.in1, row, h, j); break;
          case FusedOp::kSilu: v = a * SigmoidF(a); break;
          case FusedOp::kSigmoid: v = SigmoidF(a); break;
          case FusedOp::kRmsNorm: {
            float wj = LoadSlot(s, st.in1, row, h, j);
            if (st.gemma) wj += 1.0f;
            v = a * inv * wj;
            break;
          }
        }
        Store(dst, row * h + j, v);
      }
      __syncthreads();
    }
  }
}

void FusedChainCuda(const ExecContext&, const Tensor& out, const Tensor& x, const Tensor& w, const Tensor* residual,
                    const FusedRecipe& recipe, float eps) {
  const int64_t rows = x.shape[0], h = x.shape[1];
  if (rows == 0) return;
  const Slots slots{{Dev(x), Dev(w), Dev(residual), Dev(out)}};
  VT_LAUNCH(FusedChainKernel, RowGrid(rows), RowThreads(h), 0)(slots, recipe, rows, h, eps);
  CheckLaunch("fused_chain");
}

}  // namespace

void Register_fused_chain() { RegisterTyped<kernel::FusedChainFn>("fused_chain", VT_CUDA_BACKEND, &FusedChainCuda); }

}  // namespace vt::VT_CUDA_NS
