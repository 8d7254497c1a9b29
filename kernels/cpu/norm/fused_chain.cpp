// fused_chain Tier-1 CPU kernel: a scalar interpreter that walks the recipe
// over each row in one pass. Deliberately NOT built from the rms_norm helpers:
// it is the separately compiled loop whose bytes the equivalence check holds
// equal to rms_norm (that equality depends on -ffp-contract=off).
// Contract (validated by vt::FusedChain): x/out/residual contiguous [T,H],
// weight [H]; every step reads slots 0..3 and writes 2 or 3; out is written
// before it is read. Split: rows.
#include <cmath>

#include "api/kernel_types.h"
#include "cpu/access.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

struct Slots {
  const Tensor* t[kNumFusedSlots];
  int64_t h;
  // The weight slot is per column; every other slot is [T,H].
  float Load(int slot, int64_t row, int64_t j) const {
    return slot == kSlotWeight ? LoadF32(*t[slot], j) : LoadF32(*t[slot], row * h + j);
  }
  void Store(int slot, int64_t row, int64_t j, float v) const {
    StoreF32(*t[slot], row * h + j, v);
  }
};

inline float Sigmoid(float a) { return 1.0f / (1.0f + std::exp(-a)); }

void RunStep(const Slots& s, const FusedStep& st, int64_t row, float eps) {
  const int64_t h = s.h;
  switch (st.op) {
    case FusedOp::kAdd:
      for (int64_t j = 0; j < h; ++j) s.Store(st.out, row, j, s.Load(st.in0, row, j) + s.Load(st.in1, row, j));
      break;
    case FusedOp::kMul:
      for (int64_t j = 0; j < h; ++j) s.Store(st.out, row, j, s.Load(st.in0, row, j) * s.Load(st.in1, row, j));
      break;
    case FusedOp::kSilu:
      for (int64_t j = 0; j < h; ++j) {
        const float a = s.Load(st.in0, row, j);
        s.Store(st.out, row, j, a * Sigmoid(a));
      }
      break;
    case FusedOp::kSigmoid:
      for (int64_t j = 0; j < h; ++j) s.Store(st.out, row, j, Sigmoid(s.Load(st.in0, row, j)));
      break;
    case FusedOp::kRmsNorm: {
      float sumsq = 0.0f;
      for (int64_t j = 0; j < h; ++j) {
        const float v = s.Load(st.in0, row, j);
        sumsq += v * v;
      }
      const float inv = 1.0f / std::sqrt(sumsq / static_cast<float>(h) + eps);
      for (int64_t j = 0; j < h; ++j) {
        const float v = s.Load(st.in0, row, j);
        float wj = s.Load(st.in1, row, j);
        if (st.gemma) wj += 1.0f;
        s.Store(st.out, row, j, v * inv * wj);
      }
      break;
    }
  }
}

void FusedChainCpu(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& w,
                   const Tensor* residual, const FusedRecipe& recipe, float eps) {
  const Slots slots{{&x, &w, residual, &out}, x.shape[1]};
  ParallelForRows(ctx, x.shape[0], [&](int64_t r0, int64_t r1) {
    for (int64_t row = r0; row < r1; ++row) {
      for (int s = 0; s < recipe.n; ++s) RunStep(slots, recipe.steps[s], row, eps);
    }
  });
}

}  // namespace

void Register_fused_chain() {
  RegisterTyped<kernel::FusedChainFn>("fused_chain", Backend::kCPU, &FusedChainCpu);
}

}  // namespace vt::cpu
