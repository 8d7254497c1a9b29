// The delta-rule recurrences on the device (gdn_prefill, gdn_decode,
// gdn_spec_decode, gdn_packed_decode; the KDA kernels reuse the tile and
// staging pieces). GPU shape: a block per (sequence or request, value head,
// tile of value rows), grid-stride over those units; the tile of the
// [Dv, Dk] state lives in shared memory for the whole sequence (loaded once,
// written back once, after the last token); per token the block stages q
// (scaled) and k in shared memory, then each thread owns whole value rows
// (block-stride) and runs the CPU's step on them (cpu/gdn/delta_rule_step.h):
//   S[r,:] *= decay, dot = sum_ki S[r,ki] k[ki] (ki ascending),
//   v' = (v[r] - dot) * beta, S[r,:] += v' k, out[r] = sum_ki S[r,ki] q'[ki].
// The value rows are independent, so fusing the CPU's two passes per row and
// keeping each dot sequential in ki gives the CPU's rounding sequence: the
// bytes are the CPU's wherever exp (and log1p) round as the host's libm
// (cuda-emu; harness/modes/cuda_bytes.cpp).
#pragma once

#include <string>

#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS::delta_rule {

// Dynamic shared memory every launch may use without an opt-in.
constexpr int64_t kSharedFloats = 48 * 1024 / 4;
// Value rows per tile at most: more blocks for few heads, and a tile a
// block's threads cover in one or two turns.
constexpr int64_t kMaxTileRows = 64;
// Floats of per-block scratch after the vectors (the packed decode's norms).
constexpr int64_t kScratch = 4;

// A launch over (item, tile) units.
struct Plan {
  int64_t rows = 0;   // value rows per tile
  int64_t pitch = 0;  // floats between tile rows: odd, so the threads of a warp
                      // walking their own rows hit distinct banks
  int64_t tiles = 0;  // tiles per item
  int64_t units = 0;  // items * tiles
  std::size_t smem = 0;
};

// `vectors`: staged [Dk] vectors per token (q, k; KDA adds the decay).
// Refused before any byte is written when one state row and the vectors do
// not fit (Dk above ~3000; real heads are 64..256).
inline Plan MakePlan(const char* op, int64_t items, int64_t dk, int64_t dv, int64_t vectors) {
  Plan p;
  p.pitch = dk % 2 == 0 ? dk + 1 : dk;
  const int64_t avail = kSharedFloats - vectors * dk - kScratch;
  const int64_t fit = avail > 0 ? avail / p.pitch : 0;
  if (fit < 1) {
    throw Error(op, "the CUDA kernel keeps a tile of the state in shared memory: Dk = " + std::to_string(dk) +
                        " leaves no room for one state row (48 KiB per block)");
  }
  p.rows = dv < kMaxTileRows ? dv : kMaxTileRows;
  p.rows = p.rows < fit ? p.rows : fit;
  p.tiles = (dv + p.rows - 1) / p.rows;
  p.units = items * p.tiles;
  p.smem = static_cast<std::size_t>(p.rows * p.pitch + vectors * dk + kScratch) * sizeof(float);
  return p;
}

// One unit: item `item`, value rows [r0, r0 + rows) of its state block.
struct Unit {
  int64_t item, r0, rows;
};
__device__ __forceinline__ Unit UnitOf(int64_t u, const Plan& p, int64_t dv) {
  const int64_t r0 = (u % p.tiles) * p.rows;
  return {u / p.tiles, r0, dv - r0 < p.rows ? dv - r0 : p.rows};
}

// The block's shared memory: the tile, then the staged vectors, then scratch.
struct Shared {
  float* tile;
  float* q;
  float* k;
  float* extra;    // KDA: the per-channel decay
  float* scratch;  // kScratch floats
};
__device__ __forceinline__ Shared Carve(float* smem, const Plan& p, int64_t dk, int64_t vectors) {
  float* v = smem + p.rows * p.pitch;
  return {smem, v, v + dk, vectors > 2 ? v + 2 * dk : nullptr, v + vectors * dk};
}

// Rows [r0, r0 + rows) of the [Dv, Dk] block at element `block` -> the tile,
// widened to f32; flat over the block's threads (coalesced). The caller
// synchronises before any thread reads a row another thread loaded.
__device__ __forceinline__ void LoadTile(float* tile, const Plan& p, DevPtr state, int64_t block, const Unit& u,
                                         int64_t dk) {
  const int64_t n = u.rows * dk, base = block + u.r0 * dk;
  for (int64_t e = threadIdx.x; e < n; e += blockDim.x) tile[(e / dk) * p.pitch + e % dk] = Load(state, base + e);
}
// The tile -> the same rows of the block at `block`, rounded to the state's
// dtype. Reads every thread's rows: only after a barrier past their update.
__device__ __forceinline__ void StoreTile(DevPtr state, int64_t block, const float* tile, const Plan& p,
                                          const Unit& u, int64_t dk) {
  const int64_t n = u.rows * dk, base = block + u.r0 * dk;
  for (int64_t e = threadIdx.x; e < n; e += blockDim.x) Store(state, base + e, tile[(e / dk) * p.pitch + e % dk]);
}

// Out elements [first, first + n) set to 0 (a NULL slot's rows).
__device__ __forceinline__ void ZeroRows(DevPtr out, int64_t first, int64_t n) {
  for (int64_t e = threadIdx.x; e < n; e += blockDim.x) Store(out, first + e, 0.0f);
}

// One token on one state row (Dk floats): the CPU's step and rounding
// sequence for a scalar decay (GDN). Returns the out element.
__device__ __forceinline__ float GdnRow(float* row, const float* q, const float* k, int64_t dk, float decay,
                                        float v, float beta) {
  float dot = 0.0f;
  for (int64_t ki = 0; ki < dk; ++ki) {
    row[ki] = row[ki] * decay;
    dot = dot + row[ki] * k[ki];
  }
  const float vn = (v - dot) * beta;
  float o = 0.0f;
  for (int64_t ki = 0; ki < dk; ++ki) {
    row[ki] = row[ki] + vn * k[ki];
    o = o + row[ki] * q[ki];
  }
  return o;
}

// The per-token operands of the [T,Hk,Dk] / [T,Hv,Dv] / [T,Hv] layout
// (contiguous; validated by the API).
struct Tokens {
  DevPtr out, q, k, v;
  const float* g;
  const float* beta;
  int64_t hk_n, hv_n, dk, dv;
  float scale;
};

// Token t of value head hv on the unit's tile: q * scale and k staged, a
// barrier, each thread's rows stepped and their out elements stored, a
// barrier (the tile is complete for a write-back or snapshot, and q / k may
// be restaged).
__device__ __forceinline__ void GdnToken(const Tokens& a, const Shared& s, const Plan& p, const Unit& u, int64_t t,
                                         int64_t hv) {
  const int64_t hk = hv / (a.hv_n / a.hk_n);  // GQA: consecutive value heads share a key head
  const int64_t key = (t * a.hk_n + hk) * a.dk;
  for (int64_t ki = threadIdx.x; ki < a.dk; ki += blockDim.x) {
    s.q[ki] = Load(a.q, key + ki) * a.scale;
    s.k[ki] = Load(a.k, key + ki);
  }
  __syncthreads();
  const float decay = ExpF(a.g[t * a.hv_n + hv]);
  const float beta = a.beta[t * a.hv_n + hv];
  const int64_t first = (t * a.hv_n + hv) * a.dv + u.r0;
  for (int64_t r = threadIdx.x; r < u.rows; r += blockDim.x) {
    Store(a.out, first + r, GdnRow(s.tile + r * p.pitch, s.q, s.k, a.dk, decay, Load(a.v, first + r), beta));
  }
  __syncthreads();  // every row updated: the tile may be read whole, q / k restaged
}

inline Tokens TokensOf(const Tensor& out, const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& g,
                       const Tensor& beta, const Tensor& state, float scale) {
  return {Dev(out),
          Dev(q),
          Dev(k),
          Dev(v),
          static_cast<const float*>(g.data),
          static_cast<const float*>(beta.data),
          q.shape[1],
          state.shape[1],
          q.shape[2],
          state.shape[2],
          scale};
}

}  // namespace vt::VT_CUDA_NS::delta_rule
