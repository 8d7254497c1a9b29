// matmul_bt validation (op-contracts 3.1 MatmulBT; api::CheckMatrixProduct,
// shared with matmul), then the backend kernel. b is the one operand in the
// kernel set that honours elem_kn_repacked: its shape still reads [N,K] and it
// must be a contiguous float tensor like any other weight (the kernel set has
// no block-quantized dtype to refuse here).
#include "api/gemm/gemm_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void MatmulBT(const ExecContext& ctx, const Tensor& out, const Tensor& a, const Tensor& b) {
  const api::Checker c("matmul_bt");
  api::CheckMatrixProduct(c, ctx, out, a, b, api::Weight::kLinear);
  GetKernel<kernel::GemmFn>("matmul_bt", ctx.backend)(ctx, out, a, b);
}

}  // namespace vt
