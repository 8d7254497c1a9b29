// moe_combine CUDA kernel: out[t, :] = (sum_j w[t, j] * expert_out[t, j, :])
// * routed_scale + shared[t, :]. One thread per output element, the CPU's
// order exactly: acc = 0, then acc += w * e for j = 0..K-1 (the product
// rounded, then the add), the routed scale once on the finished sum (skipped
// when exactly 1), then the shared term, one rounding at the store - so the
// bytes are the CPU's. A flat grid over out's elements; all contiguous.
#include "cuda/core/access.cuh"
#include "cuda/core/for_each.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct CombineElement {
  DevPtr out, expert_out, shared;
  const float* w;
  int64_t k, h;
  float routed_scale;
  __device__ void operator()(int64_t i) const {
    const int64_t t = i / h, col = i % h;
    float sum = 0.0f;
    for (int64_t j = 0; j < k; ++j) {
      const float prod = w[t * k + j] * Load(expert_out, (t * k + j) * h + col);
      sum = sum + prod;
    }
    if (routed_scale != 1.0f) sum = sum * routed_scale;
    if (shared.p != nullptr) sum = sum + Load(shared, i);
    Store(out, i, sum);
  }
};

void MoeCombineCuda(const ExecContext&, const Tensor& out, const Tensor& expert_out, const Tensor& weights,
                    const Tensor* shared, float routed_scale) {
  LaunchForEach("moe_combine", out.Numel(),
                CombineElement{Dev(out), Dev(expert_out), Dev(shared), static_cast<const float*>(weights.data),
                               expert_out.shape[1], expert_out.shape[2], routed_scale});
}

}  // namespace

void Register_moe_combine() { RegisterTyped<kernel::MoeCombineFn>("moe_combine", VT_CUDA_BACKEND, &MoeCombineCuda); }

}  // namespace vt::VT_CUDA_NS
