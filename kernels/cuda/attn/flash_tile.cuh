// The flash-style dense attention kernels (attention_dense_flash: the
// FlashAttention-1 update; attention_dense_fa2: the FlashAttention-2 one).
// A block per (query tile of Br rows, q-head), grid-stride over them; the
// query tile is staged in shared memory once, then the keys are swept in
// tiles of kKeyTile (Bc) rows: each K/V tile is staged in shared memory,
//   score pass  S[r][c] = (q_r . k_c) * scale, a thread per (row, key), each
//               dot sequential over the head dim from 0 (the CPU's scores);
//   row pass    a thread per query row keeps the row's running max m and
//               sum l and turns its scores into weights (online softmax);
//   value pass  a thread per (row, head dim) folds the tile's weighted V
//               into the row's output, rescaled for the new running max.
// Keys past the causal diagonal (or past T) are never scored: a row's
// visible keys in a tile are a prefix of it, and a tile with none leaves the
// row untouched. Per row and tile, with m_old / l_old the running values and
// the tile's visible scores s_c (c in key order, every sum sequential from 0):
//   FA2 (kDeferred): m = max(m_old, max s_c); a = exp(m_old - m);
//        p_c = exp(s_c - m); l = a * l_old + sum p_c;
//        acc = a * acc + sum p_c v_c;       at the end out = acc / l.
//   FA1:  mt = max s_c; p_c = exp(s_c - mt); lt = sum p_c; m = max(m_old, mt);
//        a = exp(m_old - m); b = exp(mt - m); l = a * l_old + b * lt;
//        o = ((l_old * a) * o + b * sum p_c v_c) / l   (o stays normalized).
// This is another order than the CPU's three passes (the max is a running
// one, weights are normalized at the end or per tile), so the bytes are not
// the CPU's (harness/modes/cuda_bytes.cpp); the rule the outputs are held
// to, and the f32 evaluation of exactly these steps it is derived from
// (oracle::AttendKeysOnline, the same Bc), are in the catalog entry
// (harness/catalog/attn/attention.cpp) and docs/ops/attn.md.
#pragma once

#include <string>

#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS::attn {

// Bc: keys per staged K/V tile. It fixes where the running max is
// rescaled, so the tolerance's f32 reference uses the same value
// (attn_entry::kFlashKeyTile; a unit test holds the kernel's bytes to it).
constexpr int64_t kKeyTile = 16;
// Br: query rows per block (fewer when a wide head dim would not fit).
constexpr int64_t kMaxRowTile = 16;
constexpr std::size_t kFlashMaxShared = 48 * 1024;

// Floats of shared memory for a Br x D block: Q and O tiles [Br, D], K and V
// tiles [Bc, D], the score tile [Br, Bc], and four per-row values.
inline int64_t FlashSharedFloats(int64_t br, int64_t d) { return 2 * br * d + 2 * kKeyTile * d + br * kKeyTile + 4 * br; }

struct FlashDims {
  int64_t t, hq, hk, d, group, br;
  float scale;
  bool causal;
};

// Visible keys of row r (query q0 + r) in the tile from key j0: a prefix.
__device__ __forceinline__ int64_t VisibleInTile(const FlashDims& a, int64_t q0, int64_t rows, int64_t r, int64_t j0) {
  if (r >= rows) return 0;
  const int64_t end = a.causal ? q0 + r + 1 : a.t;
  const int64_t n = end - j0;
  return n <= 0 ? 0 : (n < kKeyTile ? n : kKeyTile);
}

// The row pass: row r's running max / sum for the tile; its scores s[0, cnt)
// become weights. mrow / lrow: running max and sum; arow / brow: what the
// value pass needs (FA2: a; FA1: l_old * a and b).
template <bool kDeferred>
__device__ __forceinline__ void RowUpdate(float* s, int64_t cnt, float* mrow, float* lrow, float* arow, float* brow) {
  float mt = -INFINITY;
  for (int64_t c = 0; c < cnt; ++c) mt = s[c] > mt ? s[c] : mt;
  const float m_old = *mrow;
  const float m = mt > m_old ? mt : m_old;
  const float a = ExpF(m_old - m);  // 0 on the row's first tile (m_old = -inf)
  if (kDeferred) {
    float sum = 0.0f;
    for (int64_t c = 0; c < cnt; ++c) {
      s[c] = ExpF(s[c] - m);
      sum += s[c];
    }
    *lrow = a * *lrow + sum;
    *arow = a;
  } else {
    float lt = 0.0f;
    for (int64_t c = 0; c < cnt; ++c) {
      s[c] = ExpF(s[c] - mt);
      lt += s[c];
    }
    const float b = ExpF(mt - m);
    *arow = *lrow * a;
    *brow = b;
    *lrow = a * *lrow + b * lt;
  }
  *mrow = m;
}

template <bool kDeferred>
__global__ void FlashKernel(DevPtr out, DevPtr q, DevPtr k, DevPtr v, FlashDims a) {
  VT_DYNAMIC_SHARED(float, smem);
  const int64_t br = a.br, d = a.d, bc = kKeyTile;
  float* qs = smem;
  float* ks = qs + br * d;
  float* vs = ks + bc * d;
  float* s = vs + bc * d;
  float* o = s + br * bc;
  float* mrow = o + br * d;
  float* lrow = mrow + br;
  float* arow = lrow + br;
  float* brow = arow + br;
  const int64_t tid = threadIdx.x, bd = blockDim.x;
  const int64_t blocks = (a.t + br - 1) / br * a.hq;
  for (int64_t blk = blockIdx.x; blk < blocks; blk += gridDim.x) {
    const int64_t h = blk % a.hq, q0 = blk / a.hq * br, g = h / a.group;
    const int64_t rows = a.t - q0 < br ? a.t - q0 : br;
    for (int64_t i = tid; i < br * d; i += bd) {
      const int64_t r = i / d;
      qs[i] = r < rows ? Load(q, ((q0 + r) * a.hq + h) * d + i % d) : 0.0f;
      o[i] = 0.0f;
    }
    for (int64_t r = tid; r < br; r += bd) {
      mrow[r] = -INFINITY;
      lrow[r] = 0.0f;
    }
    // Keys past the block's last query are masked for every row (causal).
    const int64_t kv_end = a.causal ? q0 + rows : a.t;
    for (int64_t j0 = 0; j0 < kv_end; j0 += bc) {
      const int64_t kc = kv_end - j0 < bc ? kv_end - j0 : bc;
      for (int64_t i = tid; i < kc * d; i += bd) {
        const int64_t off = ((j0 + i / d) * a.hk + g) * d + i % d;
        ks[i] = Load(k, off);
        vs[i] = Load(v, off);
      }
      __syncthreads();  // the K/V tile (and, first time, the Q tile) is staged before the score pass
      for (int64_t i = tid; i < br * bc; i += bd) {
        const int64_t r = i / bc, c = i % bc;
        if (c >= VisibleInTile(a, q0, rows, r, j0)) continue;
        float dot = 0.0f;
        for (int64_t e = 0; e < d; ++e) dot += qs[r * d + e] * ks[c * d + e];
        s[i] = dot * a.scale;
      }
      __syncthreads();  // the tile's scores are complete before the row pass
      for (int64_t r = tid; r < br; r += bd) {
        const int64_t cnt = VisibleInTile(a, q0, rows, r, j0);
        if (cnt > 0) RowUpdate<kDeferred>(s + r * bc, cnt, mrow + r, lrow + r, arow + r, brow + r);
      }
      __syncthreads();  // the weights and rescale factors are set before the value pass
      for (int64_t i = tid; i < br * d; i += bd) {
        const int64_t r = i / d, e = i % d;
        const int64_t cnt = VisibleInTile(a, q0, rows, r, j0);
        if (cnt == 0) continue;
        float pv = 0.0f;
        for (int64_t c = 0; c < cnt; ++c) pv += s[r * bc + c] * vs[c * d + e];
        if (kDeferred) {
          o[i] = arow[r] * o[i] + pv;
        } else {
          o[i] = (arow[r] * o[i] + brow[r] * pv) / lrow[r];
        }
      }
      __syncthreads();  // the value pass is done before the next tile is staged
    }
    for (int64_t i = tid; i < rows * d; i += bd) {
      const int64_t r = i / d;
      Store(out, ((q0 + r) * a.hq + h) * d + i % d, kDeferred ? o[i] / lrow[r] : o[i]);
    }
    __syncthreads();  // the block's next query tile restages Q and O
  }
}

// The launch: Br as large as fits (<= 16) for the head dim, whole warps over
// the Br x Bc score tile. A head dim too wide for even one query row is
// refused before any byte is written.
template <bool kDeferred>
void LaunchFlash(const char* op, const Tensor& out, const Tensor& query, const Tensor& key, const Tensor& value,
                 const AttentionArgs& args) {
  const int64_t t = query.shape[0], hq = query.shape[1], d = query.shape[2], hk = key.shape[1];
  if (t == 0) return;
  int64_t br = t < kMaxRowTile ? t : kMaxRowTile;
  while (br > 1 && FlashSharedFloats(br, d) * sizeof(float) > kFlashMaxShared) --br;
  const std::size_t smem = static_cast<std::size_t>(FlashSharedFloats(br, d)) * sizeof(float);
  if (smem > kFlashMaxShared) {
    throw Error(op, "the flash kernel stages K/V tiles of " + std::to_string(kKeyTile) +
                        " keys in shared memory: head dim D = " + std::to_string(d) + " needs " +
                        std::to_string(smem) + " bytes, more than " + std::to_string(kFlashMaxShared));
  }
  const FlashDims a{t, hq, hk, d, hq / hk, br, args.scale, args.causal};
  VT_LAUNCH(FlashKernel<kDeferred>, RowGrid((t + br - 1) / br * hq), RowThreads(br * kKeyTile), smem)
  (Dev(out), Dev(query), Dev(key), Dev(value), a);
  CheckLaunch(op);
}

}  // namespace vt::VT_CUDA_NS::attn
