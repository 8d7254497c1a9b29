// Backend kernel signatures, one per op. The API layer calls a kernel only
// after validation, so kernels assume every contract in ops_*.h holds.
#pragma once

#include "vt/ops_act.h"
#include "vt/ops_attn.h"
#include "vt/ops_conv.h"
#include "vt/ops_gemm.h"
#include "vt/ops_glue.h"
#include "vt/ops_mamba.h"
#include "vt/ops_moe.h"
#include "vt/ops_norm.h"
#include "vt/ops_rope.h"
#include "vt/ops_quant.h"
#include "vt/ops_state.h"
#include "vt/ops_gdn.h"

namespace vt::kernel {

using RmsNormFn = void(const ExecContext&, const Tensor& out, const Tensor& x, const Tensor& w,
                       const RmsNormArgs&, const Tensor* residual);
using RmsNormQuantFp8Fn = void(const ExecContext&, const Tensor& out_fp8, const Tensor* out_bf16,
                               const Tensor& x, const Tensor& w, const RmsNormArgs&,
                               const Tensor* residual, float input_scale);
using L2NormFn = void(const ExecContext&, const Tensor& out, const Tensor& x, const L2NormArgs&);
using RmsNormGatedFn = void(const ExecContext&, const Tensor& out, const Tensor& x,
                            const Tensor& gate, const Tensor& w, const RmsNormGatedArgs&);
using RmsNormGatedQuantFp8Fn = void(const ExecContext&, const Tensor& out_fp8, const Tensor& x,
                                    const Tensor& gate, const Tensor& w, const RmsNormGatedArgs&,
                                    float input_scale);
using RmsNormGatedGroupFn = void(const ExecContext&, const Tensor& out, const Tensor& x,
                                 const Tensor& gate, const Tensor* w, const RmsNormGatedGroupArgs&);
// The Tier-1 interpreter (Tier 0 is composed from the standalone ops in the API).
using FusedChainFn = void(const ExecContext&, const Tensor& out, const Tensor& x, const Tensor& w,
                          const Tensor* residual, const FusedRecipe&, float eps);

using UnaryFn = void(const ExecContext&, const Tensor& out, const Tensor& x);
using ScalarUnaryFn = void(const ExecContext&, const Tensor& out, const Tensor& x, float scalar);
using BinaryFn = void(const ExecContext&, const Tensor& out, const Tensor& a, const Tensor& b);
// GEMM family (matmul, matmul_bt, batched_matmul): out, a, b.
using GemmFn = void(const ExecContext&, const Tensor& out, const Tensor& a, const Tensor& b);
using InPlaceColFn = void(const ExecContext&, const Tensor& x, const Tensor& col);

// RoPE family.
using RopeNeoxFn = void(const ExecContext&, const Tensor& q, const Tensor& k, const Tensor& positions,
                        const RopeArgs&);
using RopeFromCacheFn = void(const ExecContext&, const Tensor& q, const Tensor* k,
                             const Tensor& positions, const Tensor& cache, const RopeArgs&);
using RopeCosSinCacheFn = void(const ExecContext&, const Tensor& cos_sin, const Tensor& positions,
                               const RopeArgs&);
using FusedNormRopeFn = void(const ExecContext&, const Tensor& latent_out, const Tensor& pe_out,
                             const Tensor& x, const Tensor& norm_weight, const Tensor& positions,
                             const Tensor& cache, const RmsNormArgs&, const RopeArgs&);
using AttnQkNormRopeGateFn = void(const ExecContext&, const Tensor& q_out, const Tensor& k_out,
                                  const Tensor& gate_out, const Tensor& qgate, const Tensor& kf,
                                  const Tensor& q_norm, const Tensor& k_norm, const Tensor& cos_sin,
                                  const RmsNormArgs&, const RopeArgs&);
// Glue family (vt/ops_glue.h).
using AttnGateSplitFn = void(const ExecContext&, const Tensor& q_out, const Tensor& gate_out,
                             const Tensor& qgate);
using QkvSplitFn = void(const ExecContext&, const Tensor& q_out, const Tensor& k_out,
                        const Tensor& v_out, const Tensor& qkv);
// Embedding, IndexSelect, IndexCopy: (out, source, indices).
using GatherFn = void(const ExecContext&, const Tensor& out, const Tensor& src, const Tensor& idx);
using ConcatFn = void(const ExecContext&, const Tensor& out, const Tensor& a, const Tensor& b);
// fp4 quant family: one input (x, or gate_up), two inputs (gate/up, attn/gate).
using Fp4QuantFn = void(const ExecContext&, const Tensor& out_packed, const Tensor& out_scale,
                        const Tensor& x, float gsi, Fp4ScaleLayout layout);
using Fp4QuantBinaryFn = void(const ExecContext&, const Tensor& out_packed, const Tensor& out_scale,
                              const Tensor& a, const Tensor& b, float gsi, Fp4ScaleLayout layout);
using MatmulNvfp4Fp4Fn = void(const ExecContext&, const Tensor& out, const Tensor& a_packed,
                              const Tensor& a_scale, const Tensor& b_packed, const Tensor& b_scale,
                              float alpha);
// MoE family (vt/ops_moe.h).
using MoeRouterTopKFn = void(const ExecContext&, const Tensor& weights, const Tensor& indices,
                             const Tensor& logits, const MoeRouterTopKArgs&, const Tensor* bias);
using MoeCombineFn = void(const ExecContext&, const Tensor& out, const Tensor& expert_out,
                          const Tensor& weights, const Tensor* shared, float routed_scale);

// Attention family (vt/ops_attn.h). attention and its three CUDA-variant
// names share AttentionFn (and, on the CPU, one kernel).
using AttentionFn = void(const ExecContext&, const Tensor& out, const Tensor& query, const Tensor& key,
                         const Tensor& value, const AttentionArgs&);
using AttentionCrossFn = void(const ExecContext&, const Tensor& out, const Tensor& query, const Tensor& key,
                              const Tensor& value, const Tensor* bias, const AttentionCrossArgs&);
using DFlashBlockAttentionFn = void(const ExecContext&, const Tensor& out, const Tensor& query, const Tensor& key,
                                    const Tensor& value, const DFlashBlockAttentionArgs&);
using DFlashPagedBlockAttentionFn = void(const ExecContext&, const Tensor& out, const Tensor& query,
                                         const Tensor& block_key, const Tensor& block_value,
                                         const Tensor& ctx_key, const Tensor& ctx_value,
                                         const Tensor& cu_seqlens, const Tensor& seq_lens,
                                         const Tensor& block_table, const DFlashPagedBlockAttentionArgs&);

}  // namespace vt::kernel

// Mamba2 family (vt/ops_mamba.h).
namespace vt::kernel {
using Mamba2ChunkScanFn = void(const ExecContext&, const Tensor& out, const Tensor& final_states,
                               const Tensor& x, const Tensor& dt, const Tensor& A, const Tensor& B,
                               const Tensor& C, const Tensor* D, const Tensor* z,
                               const Tensor* dt_bias, const Tensor* initial_states,
                               const Tensor& cu_seqlens, const Tensor& cu_chunk_seqlens,
                               const Tensor& last_chunk_indices, const Tensor& seq_idx,
                               const Mamba2Args&);
using Mamba2StateUpdateFn = void(const ExecContext&, const Tensor& out, const Tensor& state,
                                 const Tensor& x, const Tensor& dt, const Tensor& A,
                                 const Tensor& B, const Tensor& C, const Tensor* D,
                                 const Tensor* z, const Tensor* dt_bias,
                                 const Tensor* state_indices, const Mamba2Args&);
// Causal conv family (vt/ops_conv.h).
using CausalConv1dFwdFn = void(const ExecContext&, const Tensor& out, const Tensor& x, const Tensor& weight,
                               const Tensor* bias, const Tensor& conv_state, const Tensor& query_start_loc,
                               const Tensor& has_initial_state, const CausalConv1dArgs&);
using CausalConv1dUpdateFn = void(const ExecContext&, const Tensor& out, const Tensor& x, const Tensor& weight,
                                  const Tensor* bias, const Tensor& conv_state, const Tensor* conv_state_indices,
                                  const CausalConv1dArgs&);
using CausalConv1dSpecUpdateFn = void(const ExecContext&, const Tensor& out, const Tensor& x, const Tensor& weight,
                                      const Tensor* bias, const Tensor& conv_state,
                                      const Tensor& conv_state_indices, const Tensor& num_accepted_tokens,
                                      const Tensor& cu_seqlens, const CausalConv1dArgs&);
// State movement (vt/ops_state.h).
using GdnStateGatherFn = void(const ExecContext&, const Tensor& working, const Tensor& cache,
                              const Tensor& state_idx, const Tensor* has_initial_state);
using GdnStateScatterFn = void(const ExecContext&, const Tensor& cache, const Tensor& working,
                               const Tensor& state_idx);
// GDN recurrences (vt/ops_gdn.h). Metadata values are validated by the API.
using GdnPrefillFn = void(const ExecContext&, const Tensor& out, const Tensor& q, const Tensor& k,
                          const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                          const Tensor& query_start_loc, const GdnArgs&);
using GdnDecodeFn = void(const ExecContext&, const Tensor& out, const Tensor& q, const Tensor& k,
                         const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                         const Tensor* state_idx, const GdnArgs&);
using GdnSpecDecodeFn = void(const ExecContext&, const Tensor& out, const Tensor& q, const Tensor& k,
                             const Tensor& v, const Tensor& g, const Tensor& beta, const Tensor& state,
                             const Tensor& cu_seqlens, const Tensor& state_indices,
                             const Tensor& num_accepted_tokens, const GdnArgs&);
using GdnPackedDecodeFn = void(const ExecContext&, const Tensor& out, const Tensor& mixed_qkv,
                               const Tensor& a, const Tensor& b, const Tensor& a_log,
                               const Tensor& dt_bias, const Tensor& state, const Tensor& state_idx,
                               const GdnArgs&);

}  // namespace vt::kernel

// The GDN glue and KDA ops keep their signatures in a header of their own.
#include "api/gdn/gdn_kernel_types.h"
