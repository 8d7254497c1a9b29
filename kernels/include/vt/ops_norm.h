// Norm family: public API. Every function validates all operands and scalar
// arguments first (vt::Error naming the op and the violated condition, before
// any byte is written), then runs the backend kernel chosen by ctx.backend.
// Operand contracts: docs/ops/norm.md. Float inputs: f32/f16/bf16 ("F");
// float outputs: f32/bf16 ("O"). Leading (row) extents may be 0 (no-op); the
// reduced extent must be > 0. Outputs must not overlap inputs or each other,
// except the in-place operands named below.
#pragma once

#include "vt/context.h"
#include "vt/fused_recipe.h"
#include "vt/tensor.h"

namespace vt {

struct RmsNormArgs {
  float eps = 1e-6f;   // > 0, finite; added inside the square root
  bool gemma = false;  // weight applied as (1 + w)
};

// out[t,:] = v * rsqrt(mean(v^2) + eps) * w, v = x[t,:] (or the new residual).
// x [T,H] F, weight [H] F, out [T,H] O. Optional residual [T,H] f32/bf16 is IN
// PLACE: residual = round(residual + x) first, and the rounded value is normed.
void RmsNorm(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
             const RmsNormArgs& args, const Tensor* residual = nullptr);

// RmsNorm rounded to bf16, then static fp8 e4m3 quant of that bf16 value:
// out_fp8 = e4m3(bf16(normed) * (1 / input_scale)). out_fp8 [T,H] u8; optional
// out_bf16 [T,H] bf16 receives the bf16 normed value; residual as RmsNorm.
void RmsNormQuantFp8(const ExecContext& ctx, const Tensor& out_fp8, const Tensor* out_bf16,
                     const Tensor& x, const Tensor& weight, const RmsNormArgs& args,
                     const Tensor* residual, float input_scale);

struct L2NormArgs {
  float eps = 1e-6f;  // > 0, finite; added to the plain sum of squares
};

// y = x * rsqrt(sum(x^2) + eps) over the last dim. x rank 2 or 3 F; out same shape O.
void L2Norm(const ExecContext& ctx, const Tensor& out, const Tensor& x, const L2NormArgs& args);

struct RmsNormGatedArgs {
  float eps = 1e-6f;
  bool sigmoid_gate = false;  // act = sigmoid instead of silu
};

// out = x * rsqrt(mean(x^2) + eps) * w * act(gate) (norm before gate).
// x, out [R,D] or [T,Hv,D] contiguous; gate the same shape, inner dims packed,
// outer (token) stride may be padded; weight [D]. x/gate/weight F, out O.
void RmsNormGated(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& gate,
                  const Tensor& weight, const RmsNormGatedArgs& args);

// RmsNormGated rounded to bf16, then e4m3(bf16 * (1 / input_scale)).
// gate and weight must have x's dtype; out_fp8 u8, x's shape.
void RmsNormGatedQuantFp8(const ExecContext& ctx, const Tensor& out_fp8, const Tensor& x,
                          const Tensor& gate, const Tensor& weight, const RmsNormGatedArgs& args,
                          float input_scale);

struct RmsNormGatedGroupArgs {
  float eps = 1e-6f;
  int n_groups = 1;       // >= 1, divides hidden
  int tp_world_size = 1;  // must be 1
};

// Mamba2 gated group norm: v = x * silu(gate) in f32. Without weight: out = v
// (rounded through x's dtype). With weight [hidden]: per group of
// hidden/n_groups, out = w * round_x_dtype(v * rsqrt(mean(v^2) + eps)).
// x rank 2 or 3 F; gate same shape F; out same shape O; all contiguous.
void RmsNormGatedGroup(const ExecContext& ctx, const Tensor& out, const Tensor& x,
                       const Tensor& gate, const Tensor* weight, const RmsNormGatedGroupArgs& args);

// A fused recipe over the canonical slots [x, weight, residual, out] (see
// fused_recipe.h). x/out [T,H] (F/O), weight [H] F, optional residual [T,H]
// f32/bf16 in place. Tier kComposite runs the standalone ops the recipe
// names; kInterpreter walks the granular steps row by row in one pass.
void FusedChain(const ExecContext& ctx, const Tensor& out, const Tensor& x, const Tensor& weight,
                const Tensor* residual, const FusedRecipe& recipe, const FusedChainArgs& args);

}  // namespace vt
