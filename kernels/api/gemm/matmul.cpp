// matmul validation (op-contracts 3.1 Matmul; api::CheckMatrixProduct, shared
// with matmul_bt), then the backend kernel.
#include "api/gemm/gemm_checks.h"
#include "api/kernel_types.h"
#include "vt/registry.h"

namespace vt {

void Matmul(const ExecContext& ctx, const Tensor& out, const Tensor& a, const Tensor& b) {
  const api::Checker c("matmul");
  api::CheckMatrixProduct(c, ctx, out, a, b, api::Weight::kKN);
  GetKernel<kernel::GemmFn>("matmul", ctx.backend)(ctx, out, a, b);
}

}  // namespace vt
