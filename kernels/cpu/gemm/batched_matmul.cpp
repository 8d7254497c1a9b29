// batched_matmul CPU kernel (torch.bmm): out[g] = a[g] @ b[g] (contract:
// gemm_tile.h). Validated upstream: ranks, shapes, one input dtype, unit
// innermost strides, row strides >= row widths, out's elements disjoint and
// no overlap with a or b. Every operand is addressed through its strides:
// batch strides are free (transposed views). Split: rows of the flattened
// (batch, row) output space, each computed by one thread, on the call's tier
// (ComputeBlock dispatches; a vector tier blocks the rows it is given itself).
#include <algorithm>

#include "api/kernel_types.h"
#include "cpu/gemm/gemm_tile.h"
#include "vt/registry.h"
#include "vt/threadpool.h"

namespace vt::cpu {
namespace {

const void* At(const Tensor& t, int64_t elem) {
  return static_cast<const unsigned char*>(t.data) + elem * static_cast<int64_t>(t.ElementSize());
}

void BatchedMatmulCpu(const ExecContext& ctx, const Tensor& out, const Tensor& a, const Tensor& b) {
  const int64_t g = out.shape[0], m = out.shape[1], n = out.shape[2];
  if (g == 0 || m == 0 || n == 0) return;
  const Isa tier = gemm::TierOf(ctx, "batched_matmul");  // one tier for the whole call
  ParallelForRows(ctx, g * m, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1;) {
      const int64_t batch = r / m, i0 = r % m;
      const int64_t i1 = std::min(m, i0 + (r1 - r));  // rows of this batch in range
      gemm::Problem p;
      p.a = At(a, batch * a.stride[0]);
      p.a_dt = a.dtype;
      p.a_rs = a.stride[1];
      p.b = At(b, batch * b.stride[0]);
      p.b_dt = b.dtype;
      p.b_nk = false;
      p.ldb = b.stride[1];
      p.out = const_cast<void*>(At(out, batch * out.stride[0]));
      p.out_dt = out.dtype;
      p.out_rs = out.stride[1];
      p.k = a.shape[2];
      p.tier = tier;
      gemm::ComputeBlock(p, i0, i1, 0, n);
      r += i1 - i0;
    }
  });
}

}  // namespace

void Register_batched_matmul() {
  RegisterTyped<kernel::GemmFn>("batched_matmul", Backend::kCPU, &BatchedMatmulCpu);
}

}  // namespace vt::cpu
