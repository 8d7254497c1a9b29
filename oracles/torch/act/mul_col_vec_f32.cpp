// mul_col_vec_f32: a row scaling x * w[None, :] applied in place (the
// router-weight application): x[m, n] *= col[n], one f32 product.
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_mul_col_vec_f32(const Input& in) {
  return {{"x", Out(F32Product(Load(in, "x"), Load(in, "col").unsqueeze(0)))}};
}

}  // namespace vt::torchref
