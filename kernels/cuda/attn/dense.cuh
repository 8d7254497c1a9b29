// The dense attention rows shared by `attention` and `attention_dense_fast`
// (the CPU's one kernel under two names): query i of q-head h attends keys
// 0..i (causal) or 0..T-1 of kv-head h / (Hq/Hkv), a block per (head, query)
// row in the CPU's order (attend_row.cuh), so the bytes are the CPU's.
#pragma once

#include "cuda/attn/attend_row.cuh"

namespace vt::VT_CUDA_NS::attn {

struct DenseMap {
  DevPtr k, v;
  int64_t t, hq, hk, d, group;
  bool causal;
  __device__ RowJob<ContiguousKeys> operator()(int64_t r) const {
    const int64_t h = r / t, i = r % t;
    return RowJob<ContiguousKeys>{(i * hq + h) * d, 0, causal ? i + 1 : t, ContiguousKeys{k, v, 0, hk, h / group, d}};
  }
};

inline void DenseAttentionRows(const char* op, const Tensor& out, const Tensor& query, const Tensor& key,
                               const Tensor& value, const AttentionArgs& args) {
  const int64_t t = query.shape[0], hq = query.shape[1], d = query.shape[2], hk = key.shape[1];
  const RowIo io{Dev(query), Dev(out), DevPtr{}, d, args.scale};
  LaunchRows(op, io, hq * t, DenseMap{Dev(key), Dev(value), t, hq, hk, d, hq / hk, args.causal});
}

}  // namespace vt::VT_CUDA_NS::attn
