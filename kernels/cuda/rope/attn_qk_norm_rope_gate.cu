// attn_qk_norm_rope_gate CUDA kernel: one warp per (token, head) - the q
// heads, then the k heads - in a grid-stride loop over warps. Heads are
// short (Dh of 64..256), so a warp owns one: its lanes add the f32 squares
// of the head in double, a full-warp xor reduction (cuda/core/reduce.cuh
// WarpSum) gives every lane the sum, rounded to f32 once (the same bound
// argument as the norm family's block reduction, docs/cuda.md
// "Reductions"). Each lane then normalises and rotates NeoX pairs
// (j, j + rot/2) for j = lane, lane + 32, ..., writes the dims past rot
// normed only, and (q heads) copies the gate half. Per element the CPU's
// expression: n_j = (v_j * inv) * w'_j, out = n_x c - n_y s, n_x s + n_y c.
#include "cuda/core/reduce.cuh"
#include "cuda/rope/rope.cuh"

namespace vt::VT_CUDA_NS {
namespace {

// One side of the op (q or k): the input rows, the norm weight and the output.
struct Side {
  DevPtr in;            // qgate [T, Hq*2*Dh] or kf [T, Hkv*Dh], row-strided
  int64_t in_stride;    // the input's row stride
  int64_t head_step;    // elements between two heads' inputs (2*Dh for q|gate, Dh for k)
  const float* weight;  // [Dh] f32
  DevPtr out;           // [T, H, Dh] contiguous
  int64_t heads;
};

__device__ __forceinline__ float NormedAt(DevPtr in, int64_t at, const float* w, int64_t j, float inv, bool gemma) {
  float wj = w[j];
  if (gemma) wj += 1.0f;
  return Load(in, at + j) * inv * wj;
}

// One head, by the whole warp (every lane must call: the reduction shuffles).
__device__ __forceinline__ void NormRopeHead(const Side& sd, int64_t token, int64_t head, int64_t dh, float eps,
                                             bool gemma, const float* cs, int64_t rot) {
  const unsigned lane = threadIdx.x & 31u;
  const int64_t at = token * sd.in_stride + head * sd.head_step, o = (token * sd.heads + head) * dh;
  double acc = 0.0;
  for (int64_t j = lane; j < dh; j += 32) {
    const float v = Load(sd.in, at + j);
    const float sq = v * v;
    acc += static_cast<double>(sq);
  }
  const float sumsq = static_cast<float>(WarpSum(acc));
  const float inv = 1.0f / SqrtF(sumsq / static_cast<float>(dh) + eps);
  const int64_t half = rot / 2;
  for (int64_t j = lane; j < half; j += 32) {
    const float x = NormedAt(sd.in, at, sd.weight, j, inv, gemma);
    const float y = NormedAt(sd.in, at, sd.weight, j + half, inv, gemma);
    const float c = cs[j], s = cs[half + j];
    Store(sd.out, o + j, x * c - y * s);
    Store(sd.out, o + j + half, x * s + y * c);
  }
  for (int64_t j = rot + lane; j < dh; j += 32) Store(sd.out, o + j, NormedAt(sd.in, at, sd.weight, j, inv, gemma));
}

__global__ void AttnQkNormRopeGateKernel(Side q, Side k, DevPtr gate_out, const float* cos_sin, int64_t tokens,
                                         int64_t dh, int64_t rot, float eps, bool gemma) {
  const int64_t warps = static_cast<int64_t>(gridDim.x) * (blockDim.x / 32);
  const int64_t heads = q.heads + k.heads, units = tokens * heads;
  for (int64_t u = (blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x) / 32; u < units; u += warps) {
    const int64_t token = u / heads, h = u % heads;
    const float* cs = cos_sin + token * rot;  // the token's [cos | sin] row
    if (h < q.heads) {
      NormRopeHead(q, token, h, dh, eps, gemma, cs, rot);
      // The gate half follows the head's q half in qgate: copied as is.
      const int64_t at = token * q.in_stride + h * q.head_step + dh, o = (token * q.heads + h) * dh;
      for (int64_t j = threadIdx.x & 31u; j < dh; j += 32) Store(gate_out, o + j, Load(q.in, at + j));
    } else {
      NormRopeHead(k, token, h - q.heads, dh, eps, gemma, cs, rot);
    }
  }
}

void AttnQkNormRopeGateCuda(const ExecContext&, const Tensor& q_out, const Tensor& k_out, const Tensor& gate_out,
                            const Tensor& qgate, const Tensor& kf, const Tensor& q_norm, const Tensor& k_norm,
                            const Tensor& cos_sin, const RmsNormArgs& na, const RopeArgs& ra) {
  const int64_t tokens = q_out.shape[0], dh = q_out.shape[2];
  const int64_t units = tokens * (q_out.shape[1] + k_out.shape[1]);
  if (units == 0) return;
  const Side q{Dev(qgate), qgate.stride[0], 2 * dh, static_cast<const float*>(q_norm.data), Dev(q_out), q_out.shape[1]};
  const Side k{Dev(kf), kf.stride[0], dh, static_cast<const float*>(k_norm.data), Dev(k_out), k_out.shape[1]};
  // A warp per head: units * 32 threads in blocks of whole warps.
  VT_LAUNCH(AttnQkNormRopeGateKernel, FlatGrid(units * 32), FlatThreads(), 0)
  (q, k, Dev(gate_out), static_cast<const float*>(cos_sin.data), tokens, dh, static_cast<int64_t>(ra.rotary_dim),
   na.eps, na.gemma);
  CheckLaunch("attn_qk_norm_rope_gate");
}

}  // namespace

void Register_attn_qk_norm_rope_gate() {
  RegisterTyped<kernel::AttnQkNormRopeGateFn>("attn_qk_norm_rope_gate", VT_CUDA_BACKEND, &AttnQkNormRopeGateCuda);
}

}  // namespace vt::VT_CUDA_NS
