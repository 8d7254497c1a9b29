// The dense attention kernel that `attention` and its CUDA-variant names
// (attention_dense_fast / _flash / _fa2) register on the CPU: one function,
// four registry entries.
#pragma once

#include "vt/context.h"
#include "vt/ops_attn.h"

namespace vt::cpu {

void DenseAttentionCpu(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
                       const Tensor& value, const AttentionArgs& args);

}  // namespace vt::cpu
