#include <cmath>
#include <cstring>
#include <string>

#include "api/check.h"
#include "api/kernel_types.h"
#include "vt/codec.h"
#include "vt/registry.h"

namespace vt {
namespace {

float LogitAt(const Tensor& t, int64_t i) {
  const auto* base = static_cast<const unsigned char*>(t.data);
  uint16_t h = 0;
  switch (t.dtype) {
    case DType::kF32: {
      float f;
      std::memcpy(&f, base + i * 4, 4);
      return f;
    }
    case DType::kF16:
      std::memcpy(&h, base + i * 2, 2);
      return F16ToF32(h);
    default:
      std::memcpy(&h, base + i * 2, 2);
      return BF16ToF32(h);
  }
}

// H-8: grouped routing selects only experts whose selection score is a
// number above -inf. With softmax scores (always finite, clamped) that fails
// only through the bias; with sigmoid scores also through a NaN logit. Any
// such value could leave fewer than top_k selectable experts, where the
// reference emits duplicate expert ids, so the call is refused instead.
bool BiasSelectable(const ExecContext& ctx, const Tensor* device_bias) {
  if (device_bias == nullptr || device_bias->data == nullptr) return true;
  const api::HostValues bias(ctx, *device_bias);  // the values, readable on the host
  const float* b = bias->Ptr<const float>();
  for (int64_t j = 0; j < bias->Numel(); ++j) {
    if (std::isnan(b[j]) || b[j] == -INFINITY) return false;
  }
  return true;
}

bool LogitsHaveNoNaN(const ExecContext& ctx, const Tensor& device_logits) {
  if (device_logits.data == nullptr) return true;
  const api::HostValues host(ctx, device_logits);  // the values, readable on the host
  const Tensor& logits = *host;
  for (int64_t i = 0; i < logits.Numel(); ++i) {
    if (std::isnan(LogitAt(logits, i))) return false;
  }
  return true;
}

}  // namespace

void MoeRouterTopK(const ExecContext& ctx, const Tensor& weights, const Tensor& indices,
                   const Tensor& logits, const MoeRouterTopKArgs& args, const Tensor* bias) {
  const api::Checker c("moe_router_topk");
  c.Operand(ctx, logits, "logits");
  c.Rank(logits, "logits", 2);
  c.FloatIn(logits, "logits");
  c.Contiguous(logits, "logits");
  const int64_t t = logits.shape[0], e = logits.shape[1];
  const int64_t k = args.top_k, ng = args.num_expert_group, tg = args.topk_group;
  const bool grouped = ng > 0;
  c.Require("top_k.range", k >= 1 && k <= e,
            "top_k must be in [1, num_experts = " + std::to_string(e) + "], got " + std::to_string(k));
  c.Require("num_expert_group.sign", ng >= 0,
            "num_expert_group must be >= 0 (0 = ungrouped), got " + std::to_string(ng));
  // Arguments only the grouped (noaux_tc) path defines.
  c.Require("topk_group.ungrouped", grouped || tg == 0, "topk_group requires num_expert_group > 0");
  c.Require("scoring_func.known",
            args.scoring_func == MoeScoringFunc::kSoftmax || args.scoring_func == MoeScoringFunc::kSigmoid,
            "scoring_func must be softmax or sigmoid");
  c.Require("scoring_func.ungrouped", grouped || args.scoring_func != MoeScoringFunc::kSigmoid,
            "sigmoid scoring_func is only defined on the grouped (noaux_tc) path");
  c.Finite(args.routed_scaling_factor, "routed_scaling_factor");
  c.Require("routed_scaling_factor.ungrouped", grouped || args.routed_scaling_factor == 1.0f,
            "routed_scaling_factor requires num_expert_group > 0");
  c.Require("bias.ungrouped", grouped || bias == nullptr,
            "e_score_correction_bias requires num_expert_group > 0");
  // Grouped structure.
  const bool divides = !grouped || e % ng == 0;
  c.Require("num_expert_group.divides", divides,
            "num_experts (" + std::to_string(e) + ") must be divisible by num_expert_group (" +
                std::to_string(ng) + ")");
  c.Require("topk_group.range", !grouped || (tg >= 1 && tg <= ng),
            "topk_group must be in [1, num_expert_group], got " + std::to_string(tg));
  const bool groups_ok = !grouped || (divides && tg >= 1 && tg <= ng);
  c.Require("top_k.surviving", !grouped || !groups_ok || k <= tg * (e / ng),
            "top_k exceeds the experts surviving the group mask (topk_group * num_experts / "
            "num_expert_group)");

  c.Operand(ctx, weights, "weights");
  c.DType(weights, "weights", {DType::kF32});
  c.Shape(weights, "weights", {t, k});
  c.Contiguous(weights, "weights");
  c.Operand(ctx, indices, "indices");
  c.DType(indices, "indices", {DType::kI32});
  c.Shape(indices, "indices", {t, k});
  c.Contiguous(indices, "indices");
  c.NoOverlap(weights, "weights", logits, "logits");
  c.NoOverlap(indices, "indices", logits, "logits");
  c.NoOverlap(weights, "weights", indices, "indices");
  if (bias != nullptr) {
    c.Operand(ctx, *bias, "bias");
    c.DType(*bias, "bias", {DType::kF32});
    c.Shape(*bias, "bias", {e});
    c.Contiguous(*bias, "bias");
    c.NoOverlap(weights, "weights", *bias, "bias");
    c.NoOverlap(indices, "indices", *bias, "bias");
  }
  // Data checks last: every view above is known to be well formed.
  c.Require("bias.selectable", !grouped || BiasSelectable(ctx, bias),
            "e_score_correction_bias must not hold NaN or -inf on the grouped path: fewer than "
            "top_k experts could remain selectable (H-8)");
  c.Require("logits.selectable",
            !grouped || args.scoring_func != MoeScoringFunc::kSigmoid || LogitsHaveNoNaN(ctx, logits),
            "logits must not hold NaN under grouped sigmoid scoring: fewer than top_k experts "
            "could remain selectable (H-8)");
  GetKernel<kernel::MoeRouterTopKFn>("moe_router_topk", ctx.backend)(ctx, weights, indices, logits,
                                                                     args, bias);
}

}  // namespace vt
