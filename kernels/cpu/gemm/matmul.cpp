// matmul CPU kernel: out[M,N] = a[M,K] @ b[K,N] (contract: gemm_tile.h).
// Validated upstream: ranks, shapes, float dtypes, all three contiguous, no
// overlap. Split: on the portable tier the GEMM chunk grid over output columns
// x rows (threadpool.h), on a vector tier its own blocks (RunVectorTier); each
// output is computed by one thread, so bytes never depend on the split.
#include "api/kernel_types.h"
#include "cpu/gemm/gemm_tile.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void MatmulCpu(const ExecContext& ctx, const Tensor& out, const Tensor& a, const Tensor& b) {
  gemm::Problem p = gemm::MatrixProblem(out, a, b, /*b_nk=*/false, /*ldb=*/b.stride[0]);
  p.tier = gemm::TierOf(ctx, "matmul");
  if (p.tier != Isa::kPortable) return gemm::RunVectorTier(ctx, p, out.shape[0], out.shape[1]);
  ParallelForGrid(ctx, out.shape[1], out.shape[0], [&](const GridChunk& ch) {
    gemm::ComputeBlock(p, ch.r0, ch.r1, ch.c0, ch.c1);
  });
}

}  // namespace

void Register_matmul() { RegisterTyped<kernel::GemmFn>("matmul", Backend::kCPU, &MatmulCpu); }

}  // namespace vt::cpu
