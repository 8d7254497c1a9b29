// libtorch's matmul as a benchmark baseline (compiled only when libtorch is
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

}  // namespace vt::bench
