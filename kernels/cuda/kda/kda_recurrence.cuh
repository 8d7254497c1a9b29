// The KDA recurrence on the device (cpu/gdn/kda_recurrence.cpp), shared by
// kda_gated_delta_rule and kda_chunk_prefill. The GDN kernels' shape
// (cuda/gdn/delta_rule.cuh): a block per (sequence, value head, tile of
// value rows), grid-stride; the state tile in shared memory from the first
// token to the write-back after the last; per token q * scale, k and the
// per-channel decay exp(g[t,hv,:]) staged in shared memory, then each thread
// steps its own value rows in the CPU's order:
//   S[r,i] *= d_i, dot = sum_i S[r,i] k_i (i ascending), u = (v_r - dot) * beta,
//   S[r,i] += u k_i, out_r = sum_i S[r,i] q'_i (i ascending)
// so the bytes are the CPU's wherever exp / log1p round as the host's libm.
// `Gate` gives the log decay of element (t, hv, i): the caller's g, or the
// gate kda_chunk_prefill computes from g_raw (fused: no [T,Hv,Dk] scratch).
#pragma once

#include "cuda/gdn/delta_rule.cuh"

namespace vt::VT_CUDA_NS::kda {

namespace dr = delta_rule;

// One token on one state row: per-channel decay d[0, dk).
__device__ __forceinline__ float KdaRow(float* row, const float* q, const float* k, const float* d, int64_t dk,
                                        float v, float beta) {
  float dot = 0.0f;
  for (int64_t i = 0; i < dk; ++i) {
    row[i] = row[i] * d[i];
    dot = dot + row[i] * k[i];
  }
  const float u = (v - dot) * beta;
  float o = 0.0f;
  for (int64_t i = 0; i < dk; ++i) {
    row[i] = row[i] + u * k[i];
    o = o + row[i] * q[i];
  }
  return o;
}

// Token t of value head hv on the unit's tile: q * scale, k and the decay
// staged, a barrier, each thread's rows stepped and stored, a barrier (the
// tile complete for the write-back; the vectors free for the next token).
template <class Gate>
__device__ __forceinline__ void KdaToken(const dr::Tokens& a, const Gate& gate, const dr::Shared& s,
                                         const dr::Plan& p, const dr::Unit& u, int64_t t, int64_t hv) {
  const int64_t hk = hv / (a.hv_n / a.hk_n);  // GQA: consecutive value heads share a key head
  const int64_t key = (t * a.hk_n + hk) * a.dk, chan = (t * a.hv_n + hv) * a.dk;
  for (int64_t i = threadIdx.x; i < a.dk; i += blockDim.x) {
    s.q[i] = Load(a.q, key + i) * a.scale;
    s.k[i] = Load(a.k, key + i);
    s.extra[i] = ExpF(gate(chan + i, hv, i));
  }
  __syncthreads();
  const float beta = a.beta[t * a.hv_n + hv];
  const int64_t first = (t * a.hv_n + hv) * a.dv + u.r0;
  for (int64_t r = threadIdx.x; r < u.rows; r += blockDim.x) {
    Store(a.out, first + r, KdaRow(s.tile + r * p.pitch, s.q, s.k, s.extra, a.dk, Load(a.v, first + r), beta));
  }
  __syncthreads();  // every row updated: the tile may be read whole, the vectors restaged
}

template <class Gate>
__global__ void KdaKernel(dr::Tokens a, Gate gate, float* state, const int32_t* loc, dr::Plan p) {
  VT_DYNAMIC_SHARED(float, smem);
  const dr::Shared s = dr::Carve(smem, p, a.dk, 3);
  const DevPtr st{state, DType::kF32};
  for (int64_t unit = blockIdx.x; unit < p.units; unit += gridDim.x) {
    const dr::Unit u = dr::UnitOf(unit, p, a.dv);
    const int64_t seq = u.item / a.hv_n, hv = u.item % a.hv_n;
    const int64_t lo = loc[seq], hi = loc[seq + 1];
    if (lo == hi) continue;  // the state keeps its bytes (the CPU copies it back unchanged)
    const int64_t block = u.item * a.dv * a.dk;  // state[seq, hv]: items are (seq, hv) row-major
    dr::LoadTile(s.tile, p, st, block, u, a.dk);
    __syncthreads();
    for (int64_t t = lo; t < hi; ++t) KdaToken(a, gate, s, p, u, t, hv);
    dr::StoreTile(st, block, s.tile, p, u, a.dk);
    __syncthreads();  // the next unit reloads the tile
  }
}

// out, q, k, v, beta, state, query_start_loc as validated by api/gdn/kda_checks.h.
template <class Gate>
void LaunchKda(const char* op, const Tensor& out, const Tensor& q, const Tensor& k, const Tensor& v,
               const Tensor& beta, const Tensor& state, const Tensor& query_start_loc, float scale, Gate gate) {
  dr::Tokens a = dr::TokensOf(out, q, k, v, beta, beta, state, scale);
  a.g = nullptr;  // the gate is `gate`
  const dr::Plan p = dr::MakePlan(op, state.shape[0] * a.hv_n, a.dk, a.dv, 3);
  if (p.units == 0 || q.shape[0] == 0) return;
  VT_LAUNCH(KdaKernel<Gate>, RowGrid(p.units), RowThreads(p.rows), p.smem)
  (a, gate, static_cast<float*>(state.data), static_cast<const int32_t*>(query_start_loc.data), p);
  CheckLaunch(op);
}

}  // namespace vt::VT_CUDA_NS::kda
