// matmul_bt CUDA kernel: out[M,N] = a[M,K] @ b[N,K]^T, b a torch Linear
// weight (the tiled engine, gemm_tile.cuh; the CPU's bytes). Validated
// upstream: a row-strided, b and out contiguous. A loader-repacked weight
// (b.elem_kn_repacked) reads [N,K] but its bytes are [K,N] (leading dim N),
// so it is staged from that layout; the sums are the same either way.
#include "cuda/gemm/gemm_tile.cuh"

namespace vt::VT_CUDA_NS {
namespace {

void MatmulBtCuda(const ExecContext&, const Tensor& out, const Tensor& a, const Tensor& b) {
  const int64_t n = b.shape[0], k = b.shape[1];
  gemm::DenseOps ops;
  ops.a = Dev(a);
  ops.b = Dev(b);
  ops.out = Dev(out);
  ops.a_rs = a.stride[0];  // a may be a column slice of a wider buffer
  ops.b_nk = !b.elem_kn_repacked;
  ops.ldb = b.elem_kn_repacked ? n : k;
  ops.out_rs = out.stride[0];
  gemm::Launch("matmul_bt", ops, gemm::Extents{1, out.shape[0], n, k});
}

}  // namespace

void Register_matmul_bt() { RegisterTyped<kernel::GemmFn>("matmul_bt", VT_CUDA_BACKEND, &MatmulBtCuda); }

}  // namespace vt::VT_CUDA_NS
