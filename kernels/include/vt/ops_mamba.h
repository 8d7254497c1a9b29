// Mamba2 (SSD) family: public API. Validation first, as everywhere (vt::Error
// naming the op and the violated condition before any operand byte is
// written), then the backend kernel. All arithmetic is f32; only loads and
// stores change width. Contracts and tolerances: docs/ops/mamba.md.
// Float inputs: f32/f16/bf16 ("F"); float outputs and states: f32/bf16 ("O").
#pragma once

#include <cstdint>
#include <limits>

#include "vt/context.h"
#include "vt/tensor.h"

namespace vt {

struct Mamba2Args {
  int64_t chunk_size = 0;  // chunk scan only: a power of two > 0
  bool dt_softplus = false;  // dt <- softplus(dt), identity above 20
  // Chunk scan only: dt clamped to [dt_min, dt_max] after the softplus;
  // 0 <= dt_min <= dt_max (dt_max may be +inf), neither NaN.
  float dt_min = 0.0f;
  float dt_max = std::numeric_limits<float>::infinity();
  int tp_world_size = 1;  // must be 1
};

// Varlen SSD prefill over S sequences packed into T tokens, chunked by the
// metadata vLLM's compute_varlen_chunk_metadata builds:
//   x [T,H,P] F, dt [T,H] F, A [H] f32 (every entry < 0), B and C [T,G,N] F
//   with H % G == 0, out [T,H,P] O, final_states [S,H,P,N] O (its dtype is
//   the state dtype), optional D [H] or [H,P] f32, z [T,H,P] F, dt_bias [H]
//   f32, initial_states [S,H,P,N] O; cu_seqlens i32 [S+1], cu_chunk_seqlens
//   i32 [nchunks+1], last_chunk_indices i32 [S], seq_idx i32 [nchunks] (the
//   sequence of each chunk). All contiguous; every extent > 0.
// Metadata must describe chunks that tile [0, T) in order, each 1..chunk_size
// tokens long and inside one sequence, every sequence non-empty, with
// last_chunk_indices the index of each sequence's last chunk.
// Per sequence, h_t = exp(dt_t A) h_{t-1} + dt_t B_t x_t and
// y_t = (C_t . h_t + D x_t) [* silu(z_t)], evaluated chunk-wise: the state
// passed from one chunk to the next is read back rounded to the state dtype.
void Mamba2ChunkScan(const ExecContext& ctx, const Tensor& out, const Tensor& final_states,
                     const Tensor& x, const Tensor& dt, const Tensor& A, const Tensor& B,
                     const Tensor& C, const Tensor* D, const Tensor* z, const Tensor* dt_bias,
                     const Tensor* initial_states, const Tensor& cu_seqlens,
                     const Tensor& cu_chunk_seqlens, const Tensor& last_chunk_indices,
                     const Tensor& seq_idx, const Mamba2Args& args);

// One decode step per batch row b (selective_state_update at Mamba2's
// scalar-per-head shape). state [S,H,P,N] O is IN PLACE. x [Nb,H,P] F,
// dt [Nb,H] F, A [H] f32 (< 0), B and C [Nb,G,N] F with H % G == 0, out
// [Nb,H,P] O, optional D [H] f32, z [Nb,H,P] F, dt_bias [H] f32,
// state_indices i32 [Nb]. Without state_indices row b owns slot b (S == Nb);
// with them row b owns slot state_indices[b] < S, and a negative entry is a
// NULL row: its out row is zeroed and no slot is touched. Live entries must
// be distinct. dt_min / dt_max / chunk_size are not used.
void Mamba2StateUpdate(const ExecContext& ctx, const Tensor& out, const Tensor& state,
                       const Tensor& x, const Tensor& dt, const Tensor& A, const Tensor& B,
                       const Tensor& C, const Tensor* D, const Tensor* z, const Tensor* dt_bias,
                       const Tensor* state_indices, const Mamba2Args& args);

}  // namespace vt
