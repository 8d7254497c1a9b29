// Validation shared by the GEMM family (op-contracts 3.1, docs/ops/gemm.md).
#pragma once

#include "api/check.h"

namespace vt::api {

// How a 2-D GEMM takes its operands (op-contracts 3.1):
//   kKN      matmul: a [M,K] contiguous, b [K,N] contiguous;
//   kLinear  matmul_bt, F.linear: a [M,K] row-strided (a column slice of a
//            wider activation buffer), b the torch Linear weight [N,K],
//            contiguous - the one operand in the kernel set that honours
//            elem_kn_repacked (its shape still reads [N,K]).
enum class Weight { kKN, kLinear };

// The validation matmul and matmul_bt share, in this order: a well-formed
// 2-D float a, then b, then K agreeing (site "b.inner_dims"), then out [M,N]
// f32/bf16 contiguous, then out disjoint from a and from b.
void CheckMatrixProduct(const Checker& c, const ExecContext& ctx, const Tensor& out, const Tensor& a,
                        const Tensor& b, Weight weight);

// A batch-strided operand of batched_matmul: innermost stride 1 (site
// "<name>.inner_stride") and row stride (stride[1]) >= the row width (site
// "<name>.row_stride"); the batch stride is free. A view with no element
// addresses nothing, so any strides are accepted there.
void CheckBatchStrided(const Checker& c, const Tensor& t, const char* name);

// No two elements of the view share storage (an output written by element):
// with the dims of extent > 1 ordered by stride, each stride reaches past
// everything the smaller-strided dims span. Transposed batch views pass;
// a batch stride of 0, or batches that interleave into each other, do not.
bool ElementsDisjoint(const Tensor& t);

}  // namespace vt::api
