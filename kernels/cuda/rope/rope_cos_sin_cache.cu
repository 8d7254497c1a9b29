// rope_cos_sin_cache CUDA kernel: an elementwise grid, one thread per
// (token, pair) in a grid-stride loop; each writes cos_sin[t, i] and
// cos_sin[t, rot/2 + i] from rope::PairCosSin - the CPU's double-precision
// expression, so a rotation from this cache equals rope_neox's.
#include "cuda/rope/rope.cuh"

namespace vt::VT_CUDA_NS {
namespace {

__global__ void RopeCosSinCacheKernel(float* cos_sin, rope::DevPositions pos, int64_t tokens, RopeArgs a) {
  const int64_t rot = a.rotary_dim, half = rot / 2, n = tokens * half;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t t = i / half, pair = i % half;
    const rope::CosSin cs = rope::PairCosSin(rope::PositionAt(pos, t), pair, a.rotary_dim, a);
    cos_sin[t * rot + pair] = cs.c;
    cos_sin[t * rot + half + pair] = cs.s;
  }
}

void RopeCosSinCacheCuda(const ExecContext&, const Tensor& cos_sin, const Tensor& positions, const RopeArgs& args) {
  const int64_t n = cos_sin.shape[0] * (args.rotary_dim / 2);
  if (n == 0) return;
  VT_LAUNCH(RopeCosSinCacheKernel, FlatGrid(n), FlatThreads(), 0)
  (static_cast<float*>(cos_sin.data), rope::DevPos(positions), cos_sin.shape[0], args);
  CheckLaunch("rope_cos_sin_cache");
}

}  // namespace

void Register_rope_cos_sin_cache() {
  RegisterTyped<kernel::RopeCosSinCacheFn>("rope_cos_sin_cache", VT_CUDA_BACKEND, &RopeCosSinCacheCuda);
}

}  // namespace vt::VT_CUDA_NS
