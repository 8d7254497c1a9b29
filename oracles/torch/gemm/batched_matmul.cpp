// batched_matmul after torch.bmm as MLA's weight absorption uses it
// (mla_attention.py W_UK / W_UV): out[g] = a[g] @ b[g]; any batch stride
// (a broadcast batch of stride 0 included) is read through the case's strides;
// float64 over the op's f32 products (torch_ops.h F32ProductMatmul).
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_batched_matmul(const Input& in) {
  return {{"out", Out(F32ProductMatmul(Load(in, "a"), Load(in, "b")))}};
}

}  // namespace vt::torchref
