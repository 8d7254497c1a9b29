// The vector tiers of mamba2_state_update and mamba2_chunk_scan (portable
// declarations only: the tier code lives in mamba_step_avx512.cpp /
// mamba_step_avx2.cpp, over mamba_step.inc).
//
// Bytes: per (row, head, p) the portable tier updates the state row [N]
// elementwise, s' = s * dA + (B_n * x_p) * d, stores s' at the state dtype and
// sums y = sum_n s'_n C_n in one sequential f32 chain in n. The tiers compute
// s' and s' * C kLanes columns at a time along the row (elementwise: no order
// to keep), and run kLanes p-rows' y chains side by side, one p per lane,
// through a kLanes x kLanes register transpose of each block of products (the
// row norms' panel, cpu/norm/norm_panel.inc). Everything per head or per p
// (softplus, exp, D, silu(z)) stays the portable tier's scalar code. The
// chunk scan's tiered stages (2, 4, 5) are described at their jobs below.
#pragma once

#include <cstdint>

#include "cpu/simd/target.h"
#include "vt/context.h"
#include "vt/dtype.h"
#include "vt/isa.h"

namespace vt::cpu {

// One (batch row, head): its state block and the values the portable tier
// derives for it, widened to f32 once (exact).
struct Mamba2HeadJob {
  void* state = nullptr;  // the head's contiguous [P, N] block, f32/bf16, in place
  DType state_dt = DType::kF32;
  const float* x = nullptr;  // [P]
  const float* B = nullptr;  // [N], the head's group
  const float* C = nullptr;  // [N]
  float d = 0.0f;            // dt after bias / softplus
  float decay = 0.0f;        // exp(A d)
  int64_t P = 0, N = 0;
  float* y = nullptr;  // [P] out: y_p = sum_n s'_n C_n, before D and z
};

// mamba2_chunk_scan stage 2 (one chunk, one head): the chunk's own state
// [P, N] f32, st[p][n] += x_ip * (B_in * scale_i) for its tokens i in order
// (tokens whose scale is 0 skipped, as the portable tier). Each (p, n) is its
// own chain over i, so lanes run along n.
struct ChunkStateJob {
  float* st = nullptr;           // [P, N], accumulated in place
  float* brow = nullptr;         // scratch of len * N + 16 floats
  int64_t* live = nullptr;       // scratch of len entries
  const float* scale = nullptr;  // [len]: exp(min(last - dA_i, 0)) * dt_i
  const float* x = nullptr;      // token 0's x row [P] of this head; token i at x + i * x_stride
  const float* B = nullptr;      // token 0's B row [N] of this group; token i at B + i * b_stride
  int64_t x_stride = 0, b_stride = 0, len = 0, P = 0, N = 0;
};

// mamba2_chunk_scan stage 5 (one chunk, head and token i): per p,
// acc = C_i . prev_p (in n; +0 without prev), acc *= inter_scale, then
// acc += w_j * x_jp for j = 0..i in order. Lanes = p (the n chain through
// the panel transpose, the j chain directly on x's rows).
struct ChunkOutJob {
  const float* prev = nullptr;  // [P, N] entering state, or null
  const float* C = nullptr;     // [N]
  const float* w = nullptr;     // [i + 1]
  const float* x = nullptr;     // token 0's x row [P]; token j at x + j * x_stride
  float inter_scale = 0.0f;
  int64_t x_stride = 0, i = 0, P = 0, N = 0;
  float* y = nullptr;  // [P] out, before D and z
};

// mamba2_chunk_scan stage 4 (one chunk, group and token i): y_j = C_i . B_j
// for j = 0..count-1, each a chain in n; lanes = j (LaneChains).
struct ChunkCbJob {
  const float* C = nullptr;   // C_i [N]
  const float* B = nullptr;   // B_0 [N]; B_j at B + j * b_stride
  int64_t b_stride = 0, count = 0, N = 0;
  float* y = nullptr;  // [count]
};

// One entry point per tier, overloaded on the job.
namespace avx512 {
void Mamba2Tier(const Mamba2HeadJob& job);
void Mamba2Tier(const ChunkStateJob& job);
void Mamba2Tier(const ChunkOutJob& job);
void Mamba2Tier(const ChunkCbJob& job);
}  // namespace avx512
namespace avx2 {
void Mamba2Tier(const Mamba2HeadJob& job);
void Mamba2Tier(const ChunkStateJob& job);
void Mamba2Tier(const ChunkOutJob& job);
void Mamba2Tier(const ChunkCbJob& job);
}  // namespace avx2

// Runs job on vector tier `tier` (kAvx2 or kAvx512, one the CPU runs).
template <class Job>
void RunMamba2Tier(Isa tier, const Job& job) {
#if VT_X86_TIERS
  if (tier == Isa::kAvx512) {
    avx512::Mamba2Tier(job);
  } else {
    avx2::Mamba2Tier(job);
  }
#else
  (void)tier, (void)job;  // unreachable: no x86 tier is supported here
#endif
}

}  // namespace vt::cpu
