// matmul_bt after F.linear(x, W) with W [N,K] (UnquantizedLinearMethod): x @ W.T,
// in float64 over the op's f32 products (torch_ops.h F32ProductMatmul).
// A loader-repacked weight is the case's [N,K] view of [K,N] bytes (its
// strides say so), read through those strides like any other.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_matmul_bt(const Input& in) {
  return {{"out", Out(F32ProductMatmul(Load(in, "a"), Load(in, "b").t()))}};
}

}  // namespace vt::torchref
