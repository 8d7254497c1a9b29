// The attention family's straightforward CUDA row: one block attends one
// query row of one q-head over its visible keys, in the CPU kernel's order
// and rounding points (cpu/attn/attend_row.h), so the bytes are the CPU's
// wherever exp is (cuda-emu: the host libm; a device: ExpF, access.cuh):
//   pass 1  s_j = (q . k_j) * scale [+ bias_j], a thread per key, each dot
//           sequential over the head dim from 0; m = the block max (the
//           CPU's `s > m` from -inf: a NaN never enters, and which of +0/-0
//           wins cannot change exp(s - m));
//   pass 2  e_j = exp(s_j - m) into a shared tile of blockDim keys, and
//           thread 0 adds the tile to denom in key order (the CPU's f32
//           running sum), tile after tile;
//   pass 3  p_j = e_j * (1 / denom) into the tile, then a thread per head
//           dim adds p_j * v_j[e] in key order from 0.
// No score buffer: the tile holds blockDim keys and the scores are computed
// again in passes 2 and 3 (the same operations, so the same values), so a
// row of any length runs in a fixed amount of shared memory. A head dim
// wider than the block is covered in chunks of blockDim dims, each chunk
// running pass 3 whole.
#pragma once

#include <cmath>

#include "cuda/core/access.cuh"
#include "cuda/core/reduce.cuh"

namespace vt::VT_CUDA_NS::attn {

// Where visible key number j of a row lives: key and value storage and the
// element offset of its head row (the same in both).
struct KeyRef {
  DevPtr k, v;
  int64_t off;
};

// Keys first .. first+n-1 of one [S, Hkv, D] key/value pair, kv-head g.
struct ContiguousKeys {
  DevPtr k, v;
  int64_t first, hk, g, d;
  __device__ KeyRef operator()(int64_t j) const { return KeyRef{k, v, ((first + j) * hk + g) * d}; }
};

// What a row reads and writes besides its keys. bias (f32, may be absent)
// holds one additive term per visible key from element boff on.
struct RowIo {
  DevPtr q, out, bias;
  int64_t d;
  float scale;
};

// The largest block the row kernels launch (the tile is static shared memory).
constexpr int kMaxRowThreads = 1024;

// Scratch in shared memory: the key tile, the warps' partials, a broadcast slot.
struct RowShared {
  float* tile;  // [blockDim.x]
  float* red;   // [33]
};

template <class Keys>
__device__ __forceinline__ float Score(const RowIo& io, int64_t qoff, const Keys& keys, int64_t j, int64_t boff) {
  const KeyRef kr = keys(j);
  float dot = 0.0f;
  for (int64_t e = 0; e < io.d; ++e) dot += Load(io.q, qoff + e) * Load(kr.k, kr.off + e);
  dot *= io.scale;
  if (io.bias.p != nullptr) dot += Load(io.bias, boff + j);
  return dot;
}

// Attends query row q[qoff, qoff + d) over keys(0 .. n-1) (n >= 1) and
// stores out[ooff, ooff + d). Called by every thread of the block.
template <class Keys>
__device__ void AttendRow(const RowIo& io, int64_t qoff, const Keys& keys, int64_t n, int64_t boff, int64_t ooff,
                          RowShared sh) {
  const int64_t t = threadIdx.x, bd = blockDim.x;
  float m = -INFINITY;
  for (int64_t j = t; j < n; j += bd) {
    const float s = Score(io, qoff, keys, j, boff);
    if (s > m) m = s;
  }
  m = BlockMax(m, sh.red);

  float denom = 0.0f;  // thread 0's running sum, in key order
  for (int64_t j0 = 0; j0 < n; j0 += bd) {
    if (j0 + t < n) sh.tile[t] = ExpF(Score(io, qoff, keys, j0 + t, boff) - m);
    __syncthreads();
    if (t == 0) {
      const int64_t cnt = n - j0 < bd ? n - j0 : bd;
      for (int64_t c = 0; c < cnt; ++c) denom += sh.tile[c];
    }
    __syncthreads();  // the tile is read whole before the next one overwrites it
  }
  if (t == 0) sh.red[32] = 1.0f / denom;  // every thread read the max before the last barrier
  __syncthreads();
  const float inv = sh.red[32];  // read before pass 3's first barrier; the next row writes it after it

  for (int64_t e0 = 0; e0 < io.d; e0 += bd) {
    const int64_t e = e0 + t;
    float acc = 0.0f;
    for (int64_t j0 = 0; j0 < n; j0 += bd) {
      if (j0 + t < n) sh.tile[t] = ExpF(Score(io, qoff, keys, j0 + t, boff) - m) * inv;
      __syncthreads();  // the tile's weights are all written before the value pass reads them
      if (e < io.d) {
        const int64_t cnt = n - j0 < bd ? n - j0 : bd;
        for (int64_t c = 0; c < cnt; ++c) {
          const KeyRef kr = keys(j0 + c);
          acc += sh.tile[c] * Load(kr.v, kr.off + e);
        }
      }
      __syncthreads();  // the value pass is done before the next tile overwrites the weights
    }
    if (e < io.d) Store(io.out, ooff + e, acc);
  }
}

}  // namespace vt::VT_CUDA_NS::attn

namespace vt::VT_CUDA_NS::attn {

// One row's work: its query / out offset (out is shaped like query), its
// bias offset, its visible key count n >= 1 and where those keys live.
template <class Keys>
struct RowJob {
  int64_t qoff, boff, n;
  Keys keys;
};

// A block per row (grid-stride over rows); map(r) -> RowJob.
template <class Map>
__global__ void RowKernel(RowIo io, int64_t rows, Map map) {
  __shared__ float tile[kMaxRowThreads];
  __shared__ float red[33];
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const auto job = map(r);
    AttendRow(io, job.qoff, job.keys, job.n, job.boff, job.qoff, RowShared{tile, red});
  }
}

// Threads: whole warps over the head dim (pass 3), capped; the key tile is
// as wide as the block.
template <class Map>
void LaunchRows(const char* op, const RowIo& io, int64_t rows, const Map& map) {
  if (rows == 0) return;
  VT_LAUNCH(RowKernel<Map>, RowGrid(rows), RowThreads(io.d), 0)(io, rows, map);
  CheckLaunch(op);
}

}  // namespace vt::VT_CUDA_NS::attn
