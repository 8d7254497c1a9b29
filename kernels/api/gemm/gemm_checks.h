// Validation shared by the GEMM family (op-contracts 3.1, docs/ops/gemm.md).
#pragma once

#include "api/check.h"

namespace vt::api {

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
