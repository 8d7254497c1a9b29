// mul_scalar: Gemma's embedding normalizer, hidden * normalizer (gemma.py):
// one f32 product by the scalar the op receives as a float.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_mul_scalar(const Input& in) {
  return {{"out", Out(F32Product(Flat(in, "x"), at::scalar_tensor(in.F32("s"), at::kDouble)))}};
}

}  // namespace vt::torchref
