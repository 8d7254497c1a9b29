#include "api/kernel_types.h"
#include "api/rope/rope_checks.h"
#include "vt/registry.h"

namespace vt {
namespace {

// q or k: rank 3, f32/bf16, inner dim packed; token and head strides may be
// padded but never overlap (the op writes in place: an element two (token,
// head) pairs share would be rotated twice, by two threads).
void CheckRotated(const api::Checker& c, const ExecContext& ctx, const Tensor& t, const char* name) {
  c.Operand(ctx, t, name);
  c.Rank(t, name, 3);
  c.DType(t, name, {DType::kF32, DType::kBF16});
  c.RowStrided(t, name);
}

}  // namespace

void RopeFromCache(const ExecContext& ctx, const Tensor& q, const Tensor* k, const Tensor& positions,
                   const Tensor& cache, const RopeArgs& args) {
  const api::Checker c("rope_from_cache");
  CheckRotated(c, ctx, q, "q");
  const int64_t tokens = q.shape[0], head_dim = q.shape[2];
  if (k != nullptr) {
    CheckRotated(c, ctx, *k, "k");
    c.SameDType(*k, "k", q, "q");
    c.Require("k.shape", k->shape[0] == tokens && k->shape[2] == head_dim,
              "k must be [T, Hk, D] matching q " + q.Describe() + ", got " + k->Describe());
  }
  c.Operand(ctx, positions, "positions");
  c.RankIn(positions, "positions", 1, 2);
  c.DType(positions, "positions", {DType::kI32, DType::kI64});
  c.Contiguous(positions, "positions");
  const bool mrope = positions.rank == 2;
  c.Require("positions.shape",
            mrope ? positions.shape[0] == 3 && positions.shape[1] == tokens : positions.shape[0] == tokens,
            "positions must be [T] or (multimodal) [3, T] with T = " + std::to_string(tokens) + ", got " +
                positions.Describe());
  c.Operand(ctx, cache, "cache");
  c.Rank(cache, "cache", 2);
  c.SameDType(cache, "cache", q, "q");
  c.Contiguous(cache, "cache");
  api::CheckRotaryDim(c, args.rotary_dim, head_dim);
  c.Require("cache.shape", cache.shape[0] > 0 && cache.shape[1] == args.rotary_dim,
            "cache must be [P, rotary_dim = " + std::to_string(args.rotary_dim) + "] with P > 0, got " +
                cache.Describe());
  if (mrope) {
    const int* s = args.mrope_section;
    c.Require("mrope_section.nonnegative", s[0] >= 0 && s[1] >= 0 && s[2] >= 0,
              "mrope_section entries must be >= 0, got [" + std::to_string(s[0]) + ", " +
                  std::to_string(s[1]) + ", " + std::to_string(s[2]) + "]");
    c.Require("mrope_section.sum", int64_t{s[0]} + s[1] + s[2] == args.rotary_dim / 2,
              "mrope_section must sum to rotary_dim / 2 = " + std::to_string(args.rotary_dim / 2) +
                  ", got [" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ", " +
                  std::to_string(s[2]) + "]");
  }
  c.NoOverlap(q, "q", positions, "positions");
  c.NoOverlap(q, "q", cache, "cache");
  if (k != nullptr) {
    c.NoOverlap(*k, "k", q, "q");
    c.NoOverlap(*k, "k", positions, "positions");
    c.NoOverlap(*k, "k", cache, "cache");
  }
  api::CheckPositionsInCache(c, ctx, positions, cache.shape[0]);
  GetKernel<kernel::RopeFromCacheFn>("rope_from_cache", ctx.backend)(ctx, q, k, positions, cache, args);
}

}  // namespace vt
