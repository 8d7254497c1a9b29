// rope_from_cache CUDA kernel: an elementwise grid, one thread per
// (token, head, pair) over q's heads then k's, in a grid-stride loop; the
// flat index runs pair-fastest so neighbouring threads touch neighbouring
// elements of a head. Each thread reads its pair's cos/sin from the cache
// row of its position (under mrope: the position row of the pair's axis)
// and rotates its pair in place - every element is written by exactly one
// thread. q/k are addressed through their token and head strides (padded
// views: the gaps between heads and tokens are never touched).
#include "cuda/rope/rope.cuh"

namespace vt::VT_CUDA_NS {
namespace {

// One rotated operand: [T, heads, D] with inner dim packed.
struct Rotated {
  DevPtr t;
  int64_t heads = 0, token_stride = 0, head_stride = 0;
};
Rotated MakeRotated(const Tensor* t) {
  if (t == nullptr) return Rotated{};
  return Rotated{Dev(t), t->shape[1], t->stride[0], t->stride[1]};
}

__global__ void RopeFromCacheKernel(Rotated q, Rotated k, rope::DevPositions pos, bool mrope, DevPtr cache,
                                    int64_t tokens, RopeArgs a) {
  const int64_t rot = a.rotary_dim, half = rot / 2, heads = q.heads + k.heads;
  const int64_t n = tokens * heads * half;
  for (int64_t idx = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; idx < n;
       idx += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t pair = idx % half, rest = idx / half;
    const int64_t head = rest % heads, token = rest / heads;
    const int64_t row = mrope ? rope::MropeAxis(pair, a) * tokens + token : token;
    const int64_t at = rope::PositionAt(pos, row) * rot;
    const float c = Load(cache, at + pair);
    const float s = Load(cache, at + half + pair);
    const bool in_q = head < q.heads;
    const Rotated& r = in_q ? q : k;
    const int64_t off = token * r.token_stride + (in_q ? head : head - q.heads) * r.head_stride;
    const int64_t first = off + rope::PairFirst(pair, a.is_neox_style);
    const int64_t second = off + rope::PairSecond(pair, half, a.is_neox_style);
    rope::RotatePair(r.t, first, second, r.t, first, second, c, s);
  }
}

void RopeFromCacheCuda(const ExecContext&, const Tensor& q, const Tensor* k, const Tensor& positions,
                       const Tensor& cache, const RopeArgs& args) {
  const Rotated rq = MakeRotated(&q), rk = MakeRotated(k);
  const int64_t tokens = q.shape[0], n = tokens * (rq.heads + rk.heads) * (args.rotary_dim / 2);
  if (n == 0) return;
  VT_LAUNCH(RopeFromCacheKernel, FlatGrid(n), FlatThreads(), 0)
  (rq, rk, rope::DevPos(positions), positions.rank == 2, Dev(cache), tokens, args);
  CheckLaunch("rope_from_cache");
}

}  // namespace

void Register_rope_from_cache() {
  RegisterTyped<kernel::RopeFromCacheFn>("rope_from_cache", VT_CUDA_BACKEND, &RopeFromCacheCuda);
}

}  // namespace vt::VT_CUDA_NS
