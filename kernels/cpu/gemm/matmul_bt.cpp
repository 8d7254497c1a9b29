// matmul_bt CPU kernel: out[M,N] = a[M,K] @ b[N,K]^T, b a torch Linear weight
// (contract: gemm_tile.h). Validated upstream: a row-strided, b and out
// contiguous, shapes, float dtypes, no overlap. Split: the GEMM chunk grid
// (portable tier) or the vector tiers' blocks (RunVectorTier).
// A loader-repacked weight (b.elem_kn_repacked) reads [N,K] but its bytes are
// [K,N]: it is packed from that layout. Every output is still the same
// sequential sum over k, so both forms give the same bytes.
#include "api/kernel_types.h"
#include "cpu/gemm/gemm_tile.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

void MatmulBtCpu(const ExecContext& ctx, const Tensor& out, const Tensor& a, const Tensor& b) {
  const int64_t n = b.shape[0], k = b.shape[1];
  // A repacked weight's bytes are [K,N] (leading dim N); a plain one's [N,K].
  gemm::Problem p =
      gemm::MatrixProblem(out, a, b, /*b_nk=*/!b.elem_kn_repacked, /*ldb=*/b.elem_kn_repacked ? n : k);
  p.tier = gemm::TierOf(ctx, "matmul_bt");
  if (p.tier != Isa::kPortable) return gemm::RunVectorTier(ctx, p, out.shape[0], n);
  ParallelForGrid(ctx, n, out.shape[0], [&](const GridChunk& ch) {
    gemm::ComputeBlock(p, ch.r0, ch.r1, ch.c0, ch.c1);
  });
}

}  // namespace

void Register_matmul_bt() { RegisterTyped<kernel::GemmFn>("matmul_bt", Backend::kCPU, &MatmulBtCpu); }

}  // namespace vt::cpu
