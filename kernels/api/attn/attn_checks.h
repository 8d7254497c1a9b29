// Validation shared by the attention family: the query/key/value/out quartet
// (rank 3, one float input dtype, f32/bf16 out, contiguous, GQA head ratio,
// out shaped like query, no output overlapping an input) and the DFlash
// scalar arguments. Each call runs every check of its operands; the op's own
// validator adds the token relations and its metadata checks.
#pragma once

#include <cstdint>

#include "api/check.h"
#include "vt/ops_attn.h"

namespace vt::api {

struct AttnDims {
  int64_t tq = 0, hq = 0, d = 0;  // query [tq, hq, d]
  int64_t tk = 0, hk = 0;         // key / value [tk, hk, d]
};

// key and value are named by the caller (block_key / block_value for the
// paged op). Checks scale > 0 too.
AttnDims CheckAttnOperands(const Checker& c, const ExecContext& ctx, const Tensor& out, const Tensor& query,
                           const Tensor& key, const Tensor& value, float scale, const char* key_name = "key",
                           const char* value_name = "value");

// out must not overlap `in` (named) - for operands beyond the quartet.
void CheckOutputApart(const Checker& c, const Tensor& out, const Tensor& in, const char* in_name);

// DFlash: sliding_window >= 0, num_reqs >= 1.
void CheckDFlashArgs(const Checker& c, int64_t sliding_window, int num_reqs);

}  // namespace vt::api

namespace vt::api {

// The whole of attention / attention_dense_{fast,flash,fa2}: one validator,
// then the kernel registered under `op`.
void DenseAttention(const char* op, const ExecContext& ctx, const Tensor& out, const Tensor& query,
                    const Tensor& key, const Tensor& value, const AttentionArgs& args);

// cu_seqlens values (host or tensor storage, `n + 1` of them): starts at 0,
// ends at `total`, never decreases (a negative block length would size the
// kernel's per-row buffers from a negative count: hazard H-1).
void CheckCuSeqlens(const Checker& c, const char* name, const int32_t* cu, int64_t n, int64_t total,
                    const char* total_name);

}  // namespace vt::api
