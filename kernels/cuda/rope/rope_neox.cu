// rope_neox CUDA kernel: an elementwise grid, one thread per (token, pair i)
// in a grid-stride loop. The thread forms the pair's cos/sin once
// (rope::PairCosSin: double pow/cos/sin, rounded to f32 - the CPU's
// expression) and rotates pair (i, i + rot/2) of every q head, then every k
// head, in place. A thread per (token, head, pair) would repeat the double
// trigonometry Hq + Hk times for the same values; here, as on the CPU, it
// runs once per (token, pair), and neighbouring threads still touch
// neighbouring elements of a head. Dims >= rot are never touched.
#include "cuda/rope/rope.cuh"

namespace vt::VT_CUDA_NS {
namespace {

// The q (or k) operand of one launch: contiguous [T, heads, d].
struct Heads {
  DevPtr t;
  int64_t heads;
};

__device__ __forceinline__ void RotateHeads(Heads h, int64_t token, int64_t d, int64_t i, int64_t half,
                                            rope::CosSin cs) {
  for (int64_t head = 0; head < h.heads; ++head) {
    const int64_t base = (token * h.heads + head) * d;
    rope::RotatePair(h.t, base + i, base + i + half, h.t, base + i, base + i + half, cs.c, cs.s);
  }
}

__global__ void RopeNeoxKernel(Heads q, Heads k, rope::DevPositions pos, int64_t tokens, int64_t d, RopeArgs a) {
  const int64_t half = a.rotary_dim / 2, n = tokens * half;
  for (int64_t idx = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; idx < n;
       idx += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t token = idx / half, i = idx % half;
    const rope::CosSin cs = rope::PairCosSin(rope::PositionAt(pos, token), i, a.rotary_dim, a);
    RotateHeads(q, token, d, i, half, cs);
    RotateHeads(k, token, d, i, half, cs);
  }
}

void RopeNeoxCuda(const ExecContext&, const Tensor& q, const Tensor& k, const Tensor& positions,
                  const RopeArgs& args) {
  const int64_t tokens = q.shape[0], n = tokens * (args.rotary_dim / 2);
  if (n == 0) return;
  VT_LAUNCH(RopeNeoxKernel, FlatGrid(n), FlatThreads(), 0)
  (Heads{Dev(q), q.shape[1]}, Heads{Dev(k), k.shape[1]}, rope::DevPos(positions), tokens, q.shape[2], args);
  CheckLaunch("rope_neox");
}

}  // namespace

void Register_rope_neox() { RegisterTyped<kernel::RopeNeoxFn>("rope_neox", VT_CUDA_BACKEND, &RopeNeoxCuda); }

}  // namespace vt::VT_CUDA_NS
