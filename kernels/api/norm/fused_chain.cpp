// FusedChain: validates the canonical operands AND the recipe (hazard H-5:
// the original sent Tier-1 recipes to the interpreter unvalidated), then runs
// Tier 0 (the standalone ops the recipe stands for) or Tier 1 (interpreter).
#include <string>

#include "api/check.h"
#include "api/kernel_types.h"
#include "api/norm/norm_checks.h"
#include "vt/registry.h"

namespace vt {
namespace {

const char* SlotName(int slot) {
  static const char* kNames[kNumFusedSlots] = {"x", "weight", "residual", "out"};
  return slot >= 0 && slot < kNumFusedSlots ? kNames[slot] : "?";
}

const char* OpName(FusedOp op) {
  switch (op) {
    case FusedOp::kAdd: return "add";
    case FusedOp::kMul: return "mul";
    case FusedOp::kSilu: return "silu";
    case FusedOp::kSigmoid: return "sigmoid";
    case FusedOp::kRmsNorm: return "rms_norm";
  }
  return "?";
}

bool IsUnary(FusedOp op) { return op == FusedOp::kSilu || op == FusedOp::kSigmoid; }

void CheckRecipe(const api::Checker& c, const FusedRecipe& r, bool has_residual) {
  c.Require("recipe.step_count", r.n >= 1 && r.n <= kMaxFusedSteps,
            "recipe must have 1..8 steps, got " + std::to_string(r.n));
  bool out_written = false;
  for (int s = 0; s < r.n; ++s) {
    const FusedStep& st = r.steps[s];
    const std::string at = "step " + std::to_string(s) + ": ";
    c.Require("recipe.opcode", static_cast<int>(st.op) <= static_cast<int>(FusedOp::kRmsNorm),
              at + "unknown opcode " + std::to_string(static_cast<int>(st.op)));
    const int n_in = IsUnary(st.op) ? 1 : 2;
    const uint8_t ins[2] = {st.in0, st.in1};
    for (int k = 0; k < n_in; ++k) {
      c.Require("recipe.slot_range", ins[k] < kNumFusedSlots, at + "input slot " + std::to_string(ins[k]) +
                                             " is outside the canonical slots 0..3");
      c.Require("recipe.residual_read", ins[k] != kSlotResidual || has_residual,
                at + "reads residual but no residual operand was given");
      c.Require("recipe.out_read_before_write", ins[k] != kSlotOut || out_written,
                at + "reads out before any earlier step wrote it");
    }
    c.Require("recipe.write_slot", st.out == kSlotResidual || st.out == kSlotOut,
              at + "writes slot " + std::to_string(st.out) +
                  "; only residual (2) and out (3) are writable");
    c.Require("recipe.residual_write", st.out != kSlotResidual || has_residual,
              at + "writes residual but no residual operand was given");
    c.Require("recipe.gemma_step", !st.gemma || st.op == FusedOp::kRmsNorm, at + "gemma applies to rms_norm steps only");
    out_written = out_written || st.out == kSlotOut;
  }
  c.Require("recipe.writes_out", out_written, "recipe never writes out");
}

// Tier 0 knows two recipes: rms_norm(x) and add(x, residual -> residual)
// followed by rms_norm(residual). Anything else is refused, not approximated.
bool IsCompositeRmsNorm(const FusedRecipe& r) {
  const FusedStep& s = r.steps[0];
  return r.n == 1 && s.op == FusedOp::kRmsNorm && s.in0 == kSlotX && s.in1 == kSlotWeight &&
         s.out == kSlotOut;
}

bool IsCompositeAddRmsNorm(const FusedRecipe& r) {
  if (r.n != 2) return false;
  const FusedStep& a = r.steps[0];
  const FusedStep& n = r.steps[1];
  return a.op == FusedOp::kAdd && a.in0 == kSlotX && a.in1 == kSlotResidual &&
         a.out == kSlotResidual && n.op == FusedOp::kRmsNorm && n.in0 == kSlotResidual &&
         n.in1 == kSlotWeight && n.out == kSlotOut;
}

}  // namespace

FusedRecipe RecipeRmsNorm(bool gemma) {
  FusedRecipe r;
  r.n = 1;
  r.steps[0] = {FusedOp::kRmsNorm, kSlotX, kSlotWeight, kSlotOut, gemma};
  return r;
}

FusedRecipe RecipeFusedAddRmsNorm(bool gemma) {
  FusedRecipe r;
  r.n = 2;
  r.steps[0] = {FusedOp::kAdd, kSlotX, kSlotResidual, kSlotResidual, false};
  r.steps[1] = {FusedOp::kRmsNorm, kSlotResidual, kSlotWeight, kSlotOut, gemma};
  return r;
}

std::string Describe(const FusedRecipe& r) {
  std::string s;
  for (int i = 0; i < r.n && i < kMaxFusedSteps; ++i) {
    const FusedStep& st = r.steps[i];
    s += (i ? ";" : "") + std::string(OpName(st.op)) + "(" + SlotName(st.in0);
    if (!IsUnary(st.op)) s += std::string(",") + SlotName(st.in1);
    s += std::string("->") + SlotName(st.out) + (st.gemma ? ",gemma" : "") + ")";
  }
  return s;
}

void FusedChain(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
                const Tensor* residual, const FusedRecipe& recipe, const FusedChainArgs& args) {
  const api::Checker c("fused_chain");
  api::CheckRmsNormInputs(c, ctx, x, weight, args.eps, residual);
  api::CheckRmsNormOutput(c, ctx, out, x, weight, residual);
  CheckRecipe(c, recipe, residual != nullptr);
  if (args.tier == FusedTier::kInterpreter) {
    GetKernel<kernel::FusedChainFn>("fused_chain", ctx.backend)(ctx, out, x, weight, residual,
                                                                recipe, args.eps);
    return;
  }
  c.Require("range(tier)", args.tier == FusedTier::kComposite, "unknown tier");
  // Evaluated on every composite call (not only on refusal), so check-site
  // coverage sees valid input reach it.
  const bool plain = IsCompositeRmsNorm(recipe);
  const bool add_then_norm = IsCompositeAddRmsNorm(recipe) && residual != nullptr;
  c.Require("composite.recipe", plain || add_then_norm,
            "the composite tier has no standalone-op form for recipe " + Describe(recipe) +
                " (only rms_norm and add+rms_norm)");
  const RmsNormArgs norm{args.eps, recipe.steps[recipe.n - 1].gemma};
  RmsNorm(ctx, out, x, weight, norm, add_then_norm ? residual : nullptr);
}

}  // namespace vt
