// MoE family: public API (op-contracts 3.7, hazard H-8; docs/ops/moe.md).
// Validation first: a refused call throws vt::Error naming the op and the
// condition before any byte of any operand is written.
#pragma once

#include "vt/context.h"
#include "vt/tensor.h"

namespace vt {

enum class MoeScoringFunc : uint8_t { kSoftmax, kSigmoid };

struct MoeRouterTopKArgs {
  int top_k = 0;                  // 1 <= top_k <= E
  bool renormalize = true;        // divide the k weights by their sum (sum <= 0 -> 1)
  MoeScoringFunc scoring_func = MoeScoringFunc::kSoftmax;  // sigmoid: grouped only
  int num_expert_group = 0;       // 0: ungrouped; > 0: grouped (noaux_tc); < 0 refused
  int topk_group = 0;             // grouped: 1 <= topk_group <= num_expert_group
  float routed_scaling_factor = 1.0f;  // grouped only (finite); ungrouped: exactly 1
};

// Router: per token, scores = softmax(logits) (ungrouped, or grouped softmax)
// or sigmoid(logits) (grouped); pick top_k experts, weights descending.
// Ungrouped: greedy top-k over the softmax probabilities, strict '>' (the
// lowest index wins a tie), optional renormalize.
// Grouped: selection score = score + bias; group score = sum of the top 2
// (with a bias) or the max (without); keep topk_group groups (lowest index
// wins ties); top-k over the kept selection scores; the WEIGHT is the
// unbiased score; renormalize, then times routed_scaling_factor.
// logits [T,E] f32/f16/bf16; weights [T,top_k] f32; indices [T,top_k] i32;
// bias [E] f32 or null (grouped only). All contiguous. T may be 0.
// Grouped routing refuses inputs that could leave fewer than top_k
// selectable experts (H-8): a bias holding NaN or -inf, and NaN logits under
// sigmoid scoring.
void MoeRouterTopK(const ExecContext& ctx, const Tensor& weights, const Tensor& indices,
                   const Tensor& logits, const MoeRouterTopKArgs& args, const Tensor* bias);

// out[t,:] = (sum_j weights[t,j] * expert_out[t,j,:]) * routed_scale + shared[t,:]
// f32 accumulation over j in order, routed_scale applied once to the routed
// sum (skipped when exactly 1) before the shared add, one rounding to out.
// expert_out [T,K,H] F; weights [T,K] f32; shared [T,H] F or null; out [T,H]
// f32/bf16. All contiguous; out overlaps no input. routed_scale finite.
void MoeCombine(const ExecContext& ctx, const Tensor& out, const Tensor& expert_out,
                const Tensor& weights, const Tensor* shared, float routed_scale = 1.0f);

}  // namespace vt
