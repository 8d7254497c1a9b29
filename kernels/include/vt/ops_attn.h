// Attention family: public API. Validation first (every condition below is
// checked before any byte of any operand is written; see ops_norm.h for the
// shared conventions). Arithmetic is f32 throughout: per (q-head, query) three
// sequential passes over the visible keys in ascending order - scaled scores
// and their max, exp(score - max) and their sum, then the probability-weighted
// sum of V - and one rounding at the store. GQA: q-head h reads kv-head
// h / (Hq / Hkv). Contracts and tolerances: docs/ops/attn.md.
#pragma once

#include <cstdint>

#include "vt/context.h"
#include "vt/tensor.h"

namespace vt {

struct AttentionArgs {
  float scale = 0.0f;  // > 0, finite
  bool causal = true;  // true: query i sees keys j <= i; false: all T keys
};

// query [T,Hq,D] F; key, value [T,Hkv,D] of query's dtype; out [T,Hq,D] O;
// Hq a positive multiple of Hkv; every operand contiguous.
void Attention(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
               const Tensor& value, const AttentionArgs& args);
// The CUDA-variant names: on the CPU the same validator and the same kernel.
void AttentionDenseFast(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
                        const Tensor& value, const AttentionArgs& args);
void AttentionDenseFlash(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
                         const Tensor& value, const AttentionArgs& args);
void AttentionDenseFa2(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
                       const Tensor& value, const AttentionArgs& args);

struct AttentionCrossArgs {
  float scale = 0.0f;  // > 0, finite
};

// Non-causal: Tq queries over S keys. query [Tq,Hq,D] F; key, value [S,Hkv,D]
// of query's dtype; out [Tq,Hq,D] O; Tq > 0, S > 0; optional bias [Tq or 1, S]
// f32 added to the scaled score (a single row is broadcast to every query).
void AttentionCross(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
                    const Tensor& value, const Tensor* bias, const AttentionCrossArgs& args);

struct DFlashBlockAttentionArgs {
  float scale = 0.0f;            // > 0, finite
  bool causal = false;           // false: bidirectional inside a block
  int64_t sliding_window = 0;    // >= 0; with causal, > 0 keeps keys j >= i - (w - 1)
  const int32_t* cu_seqlens = nullptr;  // HOST array [num_reqs + 1]: 0 = cu[0] <= ... <= cu[n] = T
  int num_reqs = 1;              // >= 1
};

// Per-request blocks [cu[r], cu[r+1]) of one packed sequence; a query attends
// only to keys of its own block. query/out [T,Hq,D], key/value [T,Hkv,D].
void DFlashBlockAttention(const ExecContext& ctx, const Tensor& out, const Tensor& query, const Tensor& key,
                          const Tensor& value, const DFlashBlockAttentionArgs& args);

struct DFlashPagedBlockAttentionArgs {
  float scale = 0.0f;          // > 0, finite
  bool causal = false;
  int64_t sliding_window = 0;  // >= 0
  int num_reqs = 1;            // >= 1
  int64_t block_size = 0;      // > 0, the page height of ctx_key / ctx_value
};

// Each block query of request r attends over [its C_r context rows, read from
// the paged cache through block_table ; its own block] with the DFlash mask
// over the combined index (query ii of the block sits at C_r + ii).
// query/out [N,Hq,D]; block_key/block_value [N,Hkv,D]; ctx_key/ctx_value
// [pages, block_size, Hkv, D]; cu_seqlens i32 [num_reqs+1] (0 .. N,
// non-decreasing); seq_lens i32 [num_reqs] (0 <= C_r <= max_pages *
// block_size); block_table i32 [num_reqs, max_pages] (ids of the pages a
// request reads: 0 <= id < pages). One float dtype; every operand contiguous.
void DFlashPagedBlockAttention(const ExecContext& ctx, const Tensor& out, const Tensor& query,
                               const Tensor& block_key, const Tensor& block_value, const Tensor& ctx_key,
                               const Tensor& ctx_value, const Tensor& cu_seqlens, const Tensor& seq_lens,
                               const Tensor& block_table, const DFlashPagedBlockAttentionArgs& args);

}  // namespace vt
