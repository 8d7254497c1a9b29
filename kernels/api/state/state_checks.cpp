#include "api/state/state_checks.h"

#include "api/conv/conv_checks.h"

namespace vt::api {

void CheckStateMove(const Checker& c, const ExecContext& ctx, const Tensor& cache, const Tensor& working,
                    const Tensor& state_idx) {
  c.Operand(ctx, cache, "cache");
  c.RankIn(cache, "cache", 2, 4);
  c.FloatIn(cache, "cache");
  c.Contiguous(cache, "cache");
  c.Operand(ctx, working, "working");
  c.Require("working.rank", working.rank == cache.rank,
            "working must have the cache's rank " + std::to_string(cache.rank) + ", got " + working.Describe());
  c.DType(working, "working", {vt::DType::kF32});
  c.Contiguous(working, "working");
  bool middle = true;
  for (int d = 1; d + 1 < cache.rank; ++d) middle = middle && working.shape[d] == cache.shape[d];
  c.Require("working.middle_dims", middle,
            "working's middle dims must equal the cache's: working " + working.Describe() + ", cache " +
                cache.Describe());
  const int inner = cache.rank - 1;
  c.Require("working.inner_width", working.shape[inner] <= cache.shape[inner],
            "working's innermost dim must be <= the cache's (the leading columns of a widened row): working " +
                working.Describe() + ", cache " + cache.Describe());
  CheckMeta(c, ctx, state_idx, "state_idx", {vt::DType::kI32}, working.shape[0]);
}

}  // namespace vt::api
