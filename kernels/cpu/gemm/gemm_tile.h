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
//     OUTPUT COLUMNS, never along K, so a SIMD tier vectorises the same
//     instruction sequence lane by lane.
//
// Tiers (vt/isa.h): this portable engine is the reference; the AVX2 and
// AVX-512 tiers (gemm_simd.h, gemm_avx2.cpp, gemm_avx512.cpp) compute the
// same sums - one accumulator per output, k in order, multiply then add -
// with each vector lane a different output column, so they give its bytes.
// Callers have validated every operand (kernels/api/gemm/).
#pragma once

#include <cstdint>
#include <string_view>

#include "vt/context.h"
#include "vt/dtype.h"
#include "vt/isa.h"
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
  Isa tier = Isa::kPortable;  // the tier ComputeBlock runs (TierOf)
};

// The tier an op's call runs: the op's line of the tier table (OpTiers)
// against the call's ResolvedIsa.
inline Isa TierOf(const ExecContext& ctx, std::string_view op) { return PickTier(ctx.ResolvedIsa(), OpTiers(op)); }

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

// Computes and stores out[i, j] for rows [r0, r1) and columns [c0, c1) on
// tier p.tier, in the calling thread.
void ComputeBlock(const Problem& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1);

// The vector tiers' block functions (ComputeBlock dispatches to them).
void ComputeBlockAvx2(const Problem& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1);
void ComputeBlockAvx512(const Problem& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1);

// A 2-D problem of m x n outputs on a vector tier: its own partition into
// cache-sized blocks (rows x columns) that the threads take in turn; the
// portable tier keeps the GEMM grid of the ops (threadpool.h). Either way each
// output is computed whole by one thread, so the bytes do not depend on it.
void RunVectorTier(const ExecContext& ctx, const Problem& p, int64_t m, int64_t n);

// Per-thread scratch of at least n floats, one buffer per slot (0..2), kept
// across calls; defined in portable code so no std template is instantiated
// under a vector target.
float* Scratch(int slot, int64_t n);

}  // namespace vt::cpu::gemm
