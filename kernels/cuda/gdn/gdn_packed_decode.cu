// gdn_packed_decode CUDA kernel (cpu/gdn/gdn_packed_decode.cpp; vLLM
// fused_recurrent_gated_delta_rule_packed_decode): straight from the packed
// projections, one token per request on its cache slot. A block per
// (request, value head, tile of value rows), grid-stride:
//   q, k of the head staged from mixed_qkv [q | k | v]; each L2-normalised
//   with its sum of squares added IN INDEX ORDER by one thread (the CPU's f32
//   rounding sequence; Dk adds against the Dv x Dk step), then scaled by
//   1 / sqrt(sum + 1e-6) * extra (the product formed first);
//   the gate per thread (uniform): g = -exp(a_log) * softplus(a + dt_bias)
//   (guard 20), beta = sigmoid(b) rounded through b's dtype;
//   the tile of the cache row read through the state's dtype into shared
//   memory, stepped (cuda/gdn/delta_rule.cuh: out from the unrounded f32
//   values), written back rounded to the state's dtype.
// A NULL slot (< 0) zero-fills the out rows and touches no state; live slots
// are distinct and in range (validated on the host).
#include <cmath>

#include "cuda/gdn/delta_rule.cuh"

namespace vt::VT_CUDA_NS {
namespace {

namespace dr = delta_rule;

struct Packed {
  DevPtr out, mixed, a, b, a_log, dt_bias, state;
  const int32_t* idx;
  int64_t ms, as, bs;  // row strides of mixed_qkv, a, b
  int64_t hk_n, hv_n, dk, dv;
  float scale;
};

// softplus with the packed kernel's guard: x <= 20 ? log1p(exp(min(x, 20))) : x.
__device__ __forceinline__ float SoftplusGuarded(float x) {
  const float c = 20.0f < x ? 20.0f : x;
  return x <= 20.0f ? Log1pF(ExpF(c)) : x;
}

// The L2 factor of v[0, dk): 1 / sqrt(sum v^2 + 1e-6) * extra, the sum added
// in index order in f32 (the CPU's L2Normalize), left in the shared `factor`.
__device__ __forceinline__ void SequentialSumSq(const float* v, int64_t dk, float extra, float* factor) {
  float sumsq = 0.0f;
  for (int64_t i = 0; i < dk; ++i) sumsq = sumsq + v[i] * v[i];
  const float inv = 1.0f / SqrtF(sumsq + 1e-6f);
  *factor = inv * extra;
}

__global__ void GdnPackedDecodeKernel(Packed a, dr::Plan p) {
  VT_DYNAMIC_SHARED(float, smem);
  const dr::Shared s = dr::Carve(smem, p, a.dk, 2);
  const int64_t ratio = a.hv_n / a.hk_n;
  for (int64_t unit = blockIdx.x; unit < p.units; unit += gridDim.x) {
    const dr::Unit u = dr::UnitOf(unit, p, a.dv);
    const int64_t bt = u.item / a.hv_n, hv = u.item % a.hv_n, hk = hv / ratio;
    const int64_t slot = a.idx[bt];
    const int64_t first = (bt * a.hv_n + hv) * a.dv + u.r0;
    if (slot < 0) {
      dr::ZeroRows(a.out, first, u.rows);
      continue;
    }
    const int64_t row = bt * a.ms;
    for (int64_t ki = threadIdx.x; ki < a.dk; ki += blockDim.x) {
      s.q[ki] = Load(a.mixed, row + hk * a.dk + ki);
      s.k[ki] = Load(a.mixed, row + (a.hk_n + hk) * a.dk + ki);
    }
    const int64_t block = (slot * a.hv_n + hv) * a.dv * a.dk;
    dr::LoadTile(s.tile, p, a.state, block, u, a.dk);
    __syncthreads();
    // Two threads (one, in a one-thread block) own the two sums.
    for (int64_t w = threadIdx.x; w < 2; w += blockDim.x) {
      if (w == 0) {
        SequentialSumSq(s.q, a.dk, a.scale, &s.scratch[0]);
      } else {
        SequentialSumSq(s.k, a.dk, 1.0f, &s.scratch[1]);
      }
    }
    __syncthreads();
    const float fq = s.scratch[0], fk = s.scratch[1];
    for (int64_t ki = threadIdx.x; ki < a.dk; ki += blockDim.x) {
      s.q[ki] = s.q[ki] * fq;
      s.k[ki] = s.k[ki] * fk;
    }
    __syncthreads();
    const float x = Load(a.a, bt * a.as + hv) + Load(a.dt_bias, hv);
    const float g = -ExpF(Load(a.a_log, hv)) * SoftplusGuarded(x);
    const float beta = RoundThrough(a.b.dt, SigmoidF(Load(a.b, bt * a.bs + hv)));
    const float decay = ExpF(g);
    for (int64_t r = threadIdx.x; r < u.rows; r += blockDim.x) {
      const float v = Load(a.mixed, row + 2 * a.hk_n * a.dk + hv * a.dv + u.r0 + r);
      Store(a.out, first + r, dr::GdnRow(s.tile + r * p.pitch, s.q, s.k, a.dk, decay, v, beta));
    }
    __syncthreads();  // every row updated before the flat write-back
    dr::StoreTile(a.state, block, s.tile, p, u, a.dk);
    __syncthreads();  // the next unit restages q / k and reloads the tile
  }
}

void GdnPackedDecodeCuda(const ExecContext&, const Tensor& out, const Tensor& mixed_qkv, const Tensor& a,
                         const Tensor& b, const Tensor& a_log, const Tensor& dt_bias, const Tensor& state,
                         const Tensor& state_idx, const GdnArgs& args) {
  const int64_t hv_n = state.shape[1], dv = state.shape[2], dk = state.shape[3];
  const int64_t hk_n = (mixed_qkv.shape[1] - hv_n * dv) / (2 * dk);
  const dr::Plan p = dr::MakePlan("gdn_packed_decode", mixed_qkv.shape[0] * hv_n, dk, dv, 2);
  if (p.units == 0) return;
  const Packed k{Dev(out),
                 Dev(mixed_qkv),
                 Dev(a),
                 Dev(b),
                 Dev(a_log),
                 Dev(dt_bias),
                 Dev(state),
                 static_cast<const int32_t*>(state_idx.data),
                 mixed_qkv.stride[0],
                 a.stride[0],
                 b.stride[0],
                 hk_n,
                 hv_n,
                 dk,
                 dv,
                 args.scale};
  VT_LAUNCH(GdnPackedDecodeKernel, RowGrid(p.units), RowThreads(p.rows), p.smem)(k, p);
  CheckLaunch("gdn_packed_decode");
}

}  // namespace

void Register_gdn_packed_decode() {
  RegisterTyped<kernel::GdnPackedDecodeFn>("gdn_packed_decode", VT_CUDA_BACKEND, &GdnPackedDecodeCuda);
}

}  // namespace vt::VT_CUDA_NS
