// FusedRecipe: a short list of granular steps over four canonical operand
// slots of one row: 0 = x, 1 = weight (per column, [H]), 2 = residual, 3 = out.
// Each step reads in0 (and in1) element by element and stores into `out`
// (slot 2 or 3 only), rounding to that operand's dtype; later steps re-read
// the rounded value.
#pragma once

#include <cstdint>
#include <string>

namespace vt {

enum class FusedOp : uint8_t { kAdd, kMul, kSilu, kSigmoid, kRmsNorm };

enum FusedSlot : uint8_t { kSlotX = 0, kSlotWeight = 1, kSlotResidual = 2, kSlotOut = 3 };
inline constexpr int kNumFusedSlots = 4;
inline constexpr int kMaxFusedSteps = 8;

struct FusedStep {
  FusedOp op = FusedOp::kAdd;
  uint8_t in0 = 0;
  uint8_t in1 = 0;  // unused by kSilu / kSigmoid; the weight-like operand of kRmsNorm
  uint8_t out = kSlotOut;
  bool gemma = false;  // kRmsNorm only: weight applied as (1 + w)
};

struct FusedRecipe {
  int n = 0;
  FusedStep steps[kMaxFusedSteps];
};

enum class FusedTier : uint8_t {
  kComposite = 0,    // Tier 0: the standalone ops the recipe stands for
  kInterpreter = 1,  // Tier 1: single-pass scalar interpreter
};

struct FusedChainArgs {
  float eps = 1e-6f;  // for kRmsNorm steps; > 0, finite
  FusedTier tier = FusedTier::kComposite;
};

// out = rms_norm(x) * w  (gemma: * (1 + w)).
FusedRecipe RecipeRmsNorm(bool gemma);
// residual = round(x + residual); out = rms_norm(residual) * w.
FusedRecipe RecipeFusedAddRmsNorm(bool gemma);

// "add(x,residual->residual);rms_norm(residual,weight->out,gemma)": used in
// case identities and error messages.
std::string Describe(const FusedRecipe& recipe);

}  // namespace vt
