// The CUDA GEMM engine shared by matmul, matmul_bt, batched_matmul and
// matmul_nvfp4_fp4: out[q][i, j] = sum over k of A(q, i, k) * B(q, k, j).
//
// Contract (the seed's, kernels/cpu/gemm/gemm_tile.h): every output is ONE
// f32 accumulator that starts at +0 and takes, for k = 0, 1, ..., K-1 in
// order, one f32 multiply then one f32 add (nvcc runs with --fmad=false, so
// `acc + a * b` stays two roundings), then one rounding at the store. K is
// never split across threads and the tile tail stops at K, so the bytes do
// not depend on the tile sizes, the thread count or the grid: they are the
// CPU kernel's.
//
// Shape (GPU-style shared-memory tiling):
//   - a block owns an output tile of bm x kBN (bm = threads / kThreadCols *
//     kTM rows, so any launch cap of whole warps works) and walks the tiles
//     of all batches with a grid-stride loop;
//   - per step of kBK along K, the block stages the A panel [bm x kBK] and
//     the B panel [kBK x kBN] in __shared__ (widened to f32 once; decoded, for
//     fp4), barrier, every thread multiplies its kTM x kTN register tile,
//     barrier (nobody restages a panel another thread still reads);
//   - thread (tx, ty) owns rows ty*kTM + r and columns tx + c*kThreadCols:
//     a warp reads consecutive B columns from shared memory.
// The operand access is a functor `Ops` (a value, copied to the device):
//   float A(int64_t q, int64_t i, int64_t k) const   // a[q][i, k] as f32
//   float B(int64_t q, int64_t k, int64_t j) const   // b[q][k, j] as f32
//   void Store(int64_t q, int64_t i, int64_t j, float acc) const
#pragma once

#include "cuda/core/access.cuh"

namespace vt::VT_CUDA_NS {
namespace gemm {

inline constexpr int kTM = 2;           // output rows per thread (register tile)
inline constexpr int kTN = 2;           // output columns per thread
inline constexpr int kThreadCols = 16;  // threads across a tile's columns
inline constexpr int kBN = kThreadCols * kTN;  // tile columns
inline constexpr int kBK = 16;                 // K depth of one staged panel
inline constexpr int kMaxThreads = 1024;
inline constexpr int kMaxBM = kMaxThreads / kThreadCols * kTM;  // tile rows at 1024 threads

// Extents: q batches of [m x k] @ [k x n].
struct Extents {
  int64_t batches = 1, m = 0, n = 0, k = 0;
};

template <class Ops>
__global__ void GemmKernel(Ops ops, Extents e) {
  __shared__ float a_panel[kBK][kMaxBM];
  __shared__ float b_panel[kBK][kBN];
  const int tx = static_cast<int>(threadIdx.x) % kThreadCols, ty = static_cast<int>(threadIdx.x) / kThreadCols;
  const int threads = static_cast<int>(blockDim.x);
  const int bm = threads / kThreadCols * kTM;
  const int64_t row_tiles = (e.m + bm - 1) / bm, col_tiles = (e.n + kBN - 1) / kBN;
  const int64_t per_batch = row_tiles * col_tiles, tiles = e.batches * per_batch;
  // Every bound below is uniform over the block, so the barriers are too.
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int64_t q = t / per_batch, i0 = (t % per_batch) / col_tiles * bm, j0 = (t % col_tiles) * kBN;
    float acc[kTM][kTN];
    for (int r = 0; r < kTM; ++r) {
      for (int c = 0; c < kTN; ++c) acc[r][c] = 0.0f;
    }
    for (int64_t k0 = 0; k0 < e.k; k0 += kBK) {
      const int kn = e.k - k0 < kBK ? static_cast<int>(e.k - k0) : kBK;  // this panel's depth
      for (int x = threadIdx.x; x < bm * kBK; x += threads) {
        const int r = x / kBK, kk = x % kBK;  // consecutive threads: consecutive k of one row
        a_panel[kk][r] = (i0 + r < e.m && kk < kn) ? ops.A(q, i0 + r, k0 + kk) : 0.0f;
      }
      for (int x = threadIdx.x; x < kBK * kBN; x += threads) {
        const int kk = x / kBN, c = x % kBN;
        b_panel[kk][c] = (j0 + c < e.n && kk < kn) ? ops.B(q, k0 + kk, j0 + c) : 0.0f;
      }
      __syncthreads();
      // k in order, stopping at K: no padded step is ever added.
      for (int kk = 0; kk < kn; ++kk) {
        float av[kTM], bv[kTN];
        for (int r = 0; r < kTM; ++r) av[r] = a_panel[kk][ty * kTM + r];
        for (int c = 0; c < kTN; ++c) bv[c] = b_panel[kk][tx + c * kThreadCols];
        for (int r = 0; r < kTM; ++r) {
          for (int c = 0; c < kTN; ++c) {
            const float prod = av[r] * bv[c];
            acc[r][c] = acc[r][c] + prod;
          }
        }
      }
      __syncthreads();
    }
    for (int r = 0; r < kTM; ++r) {
      const int64_t i = i0 + ty * kTM + r;
      if (i >= e.m) continue;
      for (int c = 0; c < kTN; ++c) {
        const int64_t j = j0 + tx + c * kThreadCols;
        if (j < e.n) ops.Store(q, i, j, acc[r][c]);
      }
    }
  }
}

// Launches GemmKernel over e: threads for the rows of one tile (whole warps,
// capped by the launch caps and kMaxThreads), one block per tile up to the
// row-grid cap (the grid-stride loop takes the rest). K = 0 still stores the
// +0 empty sums.
template <class Ops>
void Launch(const char* op, const Ops& ops, const Extents& e) {
  if (e.batches == 0 || e.m == 0 || e.n == 0) return;
  unsigned threads = RowThreads((e.m + kTM - 1) / kTM * kThreadCols);
  if (threads > static_cast<unsigned>(kMaxThreads)) threads = kMaxThreads;
  const int64_t bm = threads / kThreadCols * kTM;
  const int64_t tiles = e.batches * ((e.m + bm - 1) / bm) * ((e.n + kBN - 1) / kBN);
  VT_LAUNCH(GemmKernel<Ops>, RowGrid(tiles), threads, 0)(ops, e);
  CheckLaunch(op);
}

// The float operands of matmul / matmul_bt / batched_matmul, addressed as the
// CPU kernel addresses them (gemm_tile.h Problem), with batch strides:
//   a[q][i, k]  at a + q * a_bs + i * a_rs + k
//   b[q][k, j]  at b + q * b_bs + (b_nk ? j * ldb + k : k * ldb + j)
//   out[q][i, j] at out + q * out_bs + i * out_rs + j
struct DenseOps {
  DevPtr a, b, out;
  int64_t a_bs = 0, a_rs = 0, b_bs = 0, ldb = 0, out_bs = 0, out_rs = 0;
  bool b_nk = false;
  __device__ float A(int64_t q, int64_t i, int64_t k) const { return Load(a, q * a_bs + i * a_rs + k); }
  __device__ float B(int64_t q, int64_t k, int64_t j) const {
    return Load(b, q * b_bs + (b_nk ? j * ldb + k : k * ldb + j));
  }
  __device__ void Store(int64_t q, int64_t i, int64_t j, float acc) const {
    ::vt::VT_CUDA_NS::Store(out, q * out_bs + i * out_rs + j, acc);
  }
};

}  // namespace gemm
}  // namespace vt::VT_CUDA_NS
