// The one GEMM engine of the CPU kernel set (matmul, matmul_bt, batched_matmul).
//
// Contract (the seed's): every output element is ONE f32 accumulator that
// starts at +0 and takes, for k = 0, 1, ..., K-1 in order, one f32 multiply
// a[i,k] * b[k,j] followed by one f32 add (no fused multiply-add: the build
// pins -ffp-contract=off), then one rounding to the output dtype at the
// store. K is never split; only output rows and columns are tiled, so the
// bytes do not depend on the tile sizes, the thread count or the grid.
//
// Structure (register tiling over packed panels, docs/ops/gemm.md):
//   - a tile of up to kRowTile activation rows is widened to f32 once;
//   - the weight columns of a block of kNR outputs are packed into an f32
//     panel [K][kNR] (the weight dtype and orientation resolved once per
//     panel, zero-padded past a ragged column tail);
//   - the micro-kernel keeps kMR x kNR accumulators and, per k, multiplies
//     each row's activation into the panel row and adds: lanes run across
//     OUTPUT COLUMNS, never along K, so a SIMD tier (a later one per ISA)
//     vectorises the same instruction sequence lane by lane.
// Callers have validated every operand (kernels/api/gemm/).
#pragma once

#include <cstdint>

#include "vt/dtype.h"
#include "vt/tensor.h"

namespace vt::cpu::gemm {

inline constexpr int kNR = 16;            // output columns per micro-tile (accumulator lanes)
inline constexpr int kMR = 4;             // output rows per micro-tile
inline constexpr int64_t kRowTile = 16;   // activation rows widened at once

// One 2-D GEMM problem addressed in elements of each operand's dtype.
struct Problem {
  const void* a = nullptr;  // a[i,k] at a + i * a_rs + k
  DType a_dt = DType::kF32;
  int64_t a_rs = 0;
  const void* b = nullptr;  // b_nk: b[k,j] at b + j * ldb + k; else at b + k * ldb + j
  DType b_dt = DType::kF32;
  bool b_nk = false;
  int64_t ldb = 0;
  void* out = nullptr;      // out[i,j] at out + i * out_rs + j
  DType out_dt = DType::kF32;
  int64_t out_rs = 0;
  int64_t k = 0;
};

// The problem of a 2-D GEMM (matmul, matmul_bt): a [M,K] and out [M,N] at
// their row strides; b as the caller reads it (b_nk: b[k,j] at b + j * ldb + k).
inline Problem MatrixProblem(const Tensor& out, const Tensor& a, const Tensor& b, bool b_nk, int64_t ldb) {
  Problem p;
  p.a = a.data;
  p.a_dt = a.dtype;
  p.a_rs = a.stride[0];
  p.b = b.data;
  p.b_dt = b.dtype;
  p.b_nk = b_nk;
  p.ldb = ldb;
  p.out = out.data;
  p.out_dt = out.dtype;
  p.out_rs = out.stride[0];
  p.k = a.shape[1];
  return p;
}

// Computes and stores out[i, j] for rows [r0, r1) and columns [c0, c1).
void ComputeBlock(const Problem& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1);

}  // namespace vt::cpu::gemm
