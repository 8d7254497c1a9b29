// GEMM family: public API. Validation first (op-contracts 3.1, docs/ops/gemm.md);
// every output element is one f32 sum, sequential over k, one multiply then
// one add per step (no fused multiply-add), rounded once at the store. Bytes
// do not depend on the thread count or on the GEMM grid's steal switch.
// F = f32/f16/bf16 inputs, O = f32/bf16 outputs; outputs overlap no input.
#pragma once

#include "vt/context.h"
#include "vt/tensor.h"

namespace vt {

// out[m,n] = sum_k a[m,k] * b[k,n]. a [M,K] F, b [K,N] F (dtypes may differ),
// out [M,N] O; all contiguous. M, N or K may be 0 (K = 0 writes zeros).
void Matmul(const ExecContext& ctx, const Tensor& out, const Tensor& a, const Tensor& b);

// out[m,n] = sum_k a[m,k] * b[n,k]: b is a torch Linear weight [N,K]. a [M,K] F
// with packed rows and row stride >= K (a column slice of a wider buffer);
// b [N,K] F contiguous, or, with b.elem_kn_repacked set, a [K,N] byte layout
// behind the [N,K] shape (a loader repack; same bytes out). out [M,N] O contiguous.
void MatmulBT(const ExecContext& ctx, const Tensor& out, const Tensor& a, const Tensor& b);

// torch.bmm: out[g,m,n] = sum_k a[g,m,k] * b[g,k,n]. a [G,M,K], b [G,K,N] F of
// one dtype, out [G,M,N] O. Every operand is read through its strides: unit
// innermost stride, row stride >= the row width, batch stride free
// (transposed views); out's elements must not overlap each other. G, M or N
// may be 0 (nothing written); K = 0 writes zeros.
void BatchedMatmul(const ExecContext& ctx, const Tensor& out, const Tensor& a, const Tensor& b);

}  // namespace vt
