#include "bench/torch_baseline.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

namespace vt::bench {

std::function<void()> TorchMatmul(int64_t m, int64_t n, int64_t k, const float* a_f32, const float* b_f32,
                                  bool bf16_weight) {
  const at::Tensor a = at::from_blob(const_cast<float*>(a_f32), {m, k}, at::kFloat).clone();
  at::Tensor b = at::from_blob(const_cast<float*>(b_f32), {k, n}, at::kFloat).clone();
  if (bf16_weight) b = b.to(at::kBFloat16);
  at::Tensor out = at::empty({m, n}, at::kFloat);
  return [a, b, out, bf16_weight]() mutable {
    if (bf16_weight) {
      at::matmul_out(out, a, b.to(at::kFloat));
    } else {
      at::matmul_out(out, a, b);
    }
  };
}

void TorchSetThreads(int threads) { at::set_num_threads(threads); }

}  // namespace vt::bench
