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

std::function<void()> TorchSdpa(int64_t tq, int64_t tk, int64_t hq, int64_t hkv, int64_t d, const float* q,
                                const float* k, const float* v, bool causal) {
  const auto heads_major = [](const float* p, int64_t t, int64_t h, int64_t d) {
    return at::from_blob(const_cast<float*>(p), {1, t, h, d}, at::kFloat).permute({0, 2, 1, 3}).contiguous();
  };
  const at::Tensor tq_ = heads_major(q, tq, hq, d);
  const at::Tensor tk_ = heads_major(k, tk, hkv, d).repeat_interleave(hq / hkv, 1).contiguous();
  const at::Tensor tv_ = heads_major(v, tk, hkv, d).repeat_interleave(hq / hkv, 1).contiguous();
  return [tq_, tk_, tv_, causal]() {
    const auto out = at::_scaled_dot_product_attention(tq_, tk_, tv_, {}, 0.0, false, causal);
    (void)out;
  };
}

}  // namespace vt::bench
