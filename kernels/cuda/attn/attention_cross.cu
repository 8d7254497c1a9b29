// attention_cross CUDA kernel: Tq queries over all S keys, with an optional
// f32 score bias ([Tq, S] per query row, or one [1, S] row for every query).
// A block per (head, query) row in the CPU's order (attend_row.cuh): the
// same bytes as the CPU on cuda-emu.
#include "cuda/attn/attend_row.cuh"

namespace vt::VT_CUDA_NS {
namespace {

struct CrossMap {
  DevPtr k, v;
  int64_t tq, s, hq, hk, d, group;
  bool broadcast;  // one bias row for every query
  __device__ attn::RowJob<attn::ContiguousKeys> operator()(int64_t r) const {
    const int64_t h = r / tq, i = r % tq;
    return attn::RowJob<attn::ContiguousKeys>{(i * hq + h) * d, broadcast ? 0 : i * s, s,
                                              attn::ContiguousKeys{k, v, 0, hk, h / group, d}};
  }
};

void AttentionCrossCuda(const ExecContext&, const Tensor& out, const Tensor& query, const Tensor& key,
                        const Tensor& value, const Tensor* bias, const AttentionCrossArgs& args) {
  const int64_t tq = query.shape[0], hq = query.shape[1], d = query.shape[2];
  const int64_t s = key.shape[0], hk = key.shape[1];
  const attn::RowIo io{Dev(query), Dev(out), Dev(bias), d, args.scale};
  attn::LaunchRows("attention_cross", io, hq * tq,
                   CrossMap{Dev(key), Dev(value), tq, s, hq, hk, d, hq / hk, bias != nullptr && bias->shape[0] == 1});
}

}  // namespace

void Register_attention_cross() {
  RegisterTyped<kernel::AttentionCrossFn>("attention_cross", VT_CUDA_BACKEND, &AttentionCrossCuda);
}

}  // namespace vt::VT_CUDA_NS
