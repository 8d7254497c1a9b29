#include "api/kernel_types.h"
#include "api/rope/rope_checks.h"

#include <tuple>
#include <utility>
#include "vt/registry.h"

namespace vt {

void FusedNormRope(const ExecContext& ctx, const Tensor& latent_out, const Tensor& pe_out, const Tensor& x,
                   const Tensor& norm_weight, const Tensor& positions, const Tensor& cache,
                   const RmsNormArgs& norm_args, const RopeArgs& rope_args) {
  const api::Checker c("fused_norm_rope");
  c.Operand(ctx, x, "x");
  c.Rank(x, "x", 2);
  c.DType(x, "x", {DType::kF32, DType::kBF16});
  // Row strides are free but must not make rows overlap (H-4: the spec checked
  // only the inner stride; overlapping output rows would be written twice).
  c.RowStrided(x, "x");
  c.Operand(ctx, norm_weight, "weight");
  c.Rank(norm_weight, "weight", 1);
  c.SameDType(norm_weight, "weight", x, "x");
  c.Contiguous(norm_weight, "weight");
  const int64_t tokens = x.shape[0], off = norm_weight.shape[0], rot = rope_args.rotary_dim;
  c.Require("weight.nonempty", off > 0, "weight (the latent width) must have > 0 elements, got " +
                                            norm_weight.Describe());
  c.Require("x.shape", x.shape[1] == off + rot,
            "x must be [T, off + rot] = [T, " + std::to_string(off) + " + " + std::to_string(rot) + "], got " +
                x.Describe());
  api::CheckRotaryDim(c, rope_args.rotary_dim, x.shape[1] - off);  // even and > 0
  for (const auto& [t, name, width] : {std::tuple<const Tensor&, const char*, int64_t>{latent_out, "latent_out", off},
                                       {pe_out, "pe_out", rot}}) {
    c.Operand(ctx, t, name);
    c.Rank(t, name, 2);
    c.SameDType(t, name, x, "x");
    c.RowStrided(t, name);
    c.Shape(t, name, {tokens, width});
  }
  api::CheckTokenPositions(c, ctx, positions, tokens);
  c.Operand(ctx, cache, "cache");
  c.Rank(cache, "cache", 2);
  c.SameDType(cache, "cache", x, "x");
  c.Contiguous(cache, "cache");
  c.Require("cache.shape", cache.shape[0] > 0 && cache.shape[1] == rot,
            "cache must be [P, rotary_dim = " + std::to_string(rot) + "] with P > 0, got " + cache.Describe());
  c.PositiveFinite(norm_args.eps, "eps");
  for (const auto& [t, name] : {std::pair<const Tensor&, const char*>{latent_out, "latent_out"}, {pe_out, "pe_out"}}) {
    c.NoOverlap(t, name, x, "x");
    c.NoOverlap(t, name, norm_weight, "weight");
    c.NoOverlap(t, name, positions, "positions");
    c.NoOverlap(t, name, cache, "cache");
  }
  c.NoOverlap(pe_out, "pe_out", latent_out, "latent_out");
  api::CheckPositionsInCache(c, ctx, positions, cache.shape[0]);
  GetKernel<kernel::FusedNormRopeFn>("fused_norm_rope", ctx.backend)(ctx, latent_out, pe_out, x, norm_weight,
                                                                     positions, cache, norm_args, rope_args);
}

}  // namespace vt
