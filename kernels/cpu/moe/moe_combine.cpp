// moe_combine CPU kernel: out[t,:] = (sum_j w[t,j] * expert_out[t,j,:]) *
// routed_scale + shared[t,:]. Per element: acc = 0.0f, then acc += w*e for
// j = 0..K-1 in order (product rounded, then the add); the routed scale
// multiplies the finished sum once (skipped when exactly 1, as the spec does)
// and only then is the shared term added; one rounding at the store.
// Contract (validated): shapes [T,K,H] / [T,K] / [T,H], contiguous, out
// overlaps no input. Split: rows (tokens) of out.
#include <vector>

#include "api/kernel_types.h"
#include "cpu/moe/moe_rows.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void MoeCombineCpu(const ExecContext& ctx, const Tensor& out, const Tensor& expert_out,
                   const Tensor& weights, const Tensor* shared, float routed_scale) {
  const int64_t k = expert_out.shape[1], h = expert_out.shape[2];
  const float* w = weights.Ptr<const float>();
  ParallelForRows(ctx, out.shape[0], [&](int64_t r0, int64_t r1) {
    std::vector<float> experts(static_cast<size_t>(k * h));
    std::vector<float> side(static_cast<size_t>(h));
    std::vector<float> acc(static_cast<size_t>(h));
    for (int64_t row = r0; row < r1; ++row) {
      moe::LoadRowF32(expert_out, row * k * h, k * h, experts.data());
      if (shared != nullptr) moe::LoadRowF32(*shared, row * h, h, side.data());
      const float* wr = w + row * k;
      for (int64_t col = 0; col < h; ++col) {
        float sum = 0.0f;
        for (int64_t j = 0; j < k; ++j) sum += wr[j] * experts[static_cast<size_t>(j * h + col)];
        if (routed_scale != 1.0f) sum *= routed_scale;
        if (shared != nullptr) sum += side[static_cast<size_t>(col)];
        acc[static_cast<size_t>(col)] = sum;
      }
      moe::StoreRowF32(out, row * h, h, acc.data());
    }
  });
}

}  // namespace

void Register_moe_combine() {
  RegisterTyped<kernel::MoeCombineFn>("moe_combine", Backend::kCPU, &MoeCombineCpu);
}

}  // namespace vt::cpu
