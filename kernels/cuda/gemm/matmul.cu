// matmul CUDA kernel: out[M,N] = a[M,K] @ b[K,N] (the shared-memory tiled
// engine, gemm_tile.cuh; the seed's sequential-K contract, so the bytes are
// the CPU kernel's). Validated upstream: all three contiguous, a and b each
// f32/f16/bf16 (they may differ), out f32/bf16, no overlap.
#include "cuda/gemm/gemm_tile.cuh"

namespace vt::VT_CUDA_NS {
namespace {

void MatmulCuda(const ExecContext&, const Tensor& out, const Tensor& a, const Tensor& b) {
  gemm::DenseOps ops;
  ops.a = Dev(a);
  ops.b = Dev(b);  // its own dtype: a and b may differ
  ops.out = Dev(out);
  ops.a_rs = a.stride[0];
  ops.ldb = b.stride[0];
  ops.out_rs = out.stride[0];
  ops.b_nk = false;
  gemm::Launch("matmul", ops, gemm::Extents{1, out.shape[0], out.shape[1], a.shape[1]});
}

}  // namespace

void Register_matmul() { RegisterTyped<kernel::GemmFn>("matmul", VT_CUDA_BACKEND, &MatmulCuda); }

}  // namespace vt::VT_CUDA_NS
