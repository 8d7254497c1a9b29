// libtorch's matmul and softmax attention as benchmark baselines (compiled only when libtorch is
// found: torch_baseline.cpp is the one file that includes torch).
#pragma once

#include <cstdint>
#include <functional>

namespace vt::bench {

// One call of out = a @ b for a [m,k] f32 and b [k,n] (bf16_weight: b held in
// bf16 and widened by torch each call, as vt's kernel does), data from
// a_f32 / b_f32 (row-major). The closure owns its tensors.
std::function<void()> TorchMatmul(int64_t m, int64_t n, int64_t k, const float* a_f32, const float* b_f32,
                                  bool bf16_weight);
void TorchSetThreads(int threads);

// One call of softmax attention for vt's layout: q [tq, hq, d], k and v
// [tk, hkv, d], f32 (hq a multiple of hkv). libtorch 1.13 has neither a
// scale argument nor GQA: it scales by 1/sqrt(d) (the caller gives vt the
// same scale), and k / v are expanded to hq heads once, outside the timed
// call, all operands permuted to [1, heads, tokens, d] beforehand. causal:
// query i sees keys 0..i (tq == tk). The closure owns its tensors.
std::function<void()> TorchSdpa(int64_t tq, int64_t tk, int64_t hq, int64_t hkv, int64_t d, const float* q,
                                const float* k, const float* v, bool causal);

}  // namespace vt::bench
