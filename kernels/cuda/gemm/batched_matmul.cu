// batched_matmul CUDA kernel (torch.bmm): out[g] = a[g] @ b[g] (the tiled
// engine, gemm_tile.cuh, its grid-stride loop running over the tiles of all
// batches; the CPU's bytes). Validated upstream: unit innermost strides, row
// strides >= row widths, FREE batch strides (transposed views, a broadcast
// input with batch stride 0), out's elements disjoint, no overlap. Every
// operand is addressed through its own batch and row strides.
#include "cuda/gemm/gemm_tile.cuh"

namespace vt::VT_CUDA_NS {
namespace {

void BatchedMatmulCuda(const ExecContext&, const Tensor& out, const Tensor& a, const Tensor& b) {
  gemm::DenseOps ops;
  ops.a = Dev(a);
  ops.b = Dev(b);
  ops.out = Dev(out);
  ops.a_bs = a.stride[0];
  ops.a_rs = a.stride[1];
  ops.b_bs = b.stride[0];
  ops.ldb = b.stride[1];
  ops.out_bs = out.stride[0];
  ops.out_rs = out.stride[1];
  ops.b_nk = false;
  gemm::Launch("batched_matmul", ops, gemm::Extents{out.shape[0], out.shape[1], out.shape[2], a.shape[2]});
}

}  // namespace

void Register_batched_matmul() {
  RegisterTyped<kernel::GemmFn>("batched_matmul", VT_CUDA_BACKEND, &BatchedMatmulCuda);
}

}  // namespace vt::VT_CUDA_NS
