// matmul after vLLM's default_unquantized_gemm (layers/utils.py) as the
// upstream tests' reference writes it: a.float() @ b.float(), here in float64
// over the op's f32 products (torch_ops.h F32ProductMatmul).
#include "oracles/torch/torch_ops.h"

namespace vt::torchref {

Result Ref_matmul(const Input& in) { return {{"out", Out(F32ProductMatmul(Load(in, "a"), Load(in, "b")))}}; }

}  // namespace vt::torchref
