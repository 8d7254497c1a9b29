// torch reference: attention_dense_fa2, a CUDA-variant name of attention
// (the same CPU kernel, arguments and definition): attention's reference.
#include "oracles/torch/reference.h"

namespace vt::torchref {

Result AttentionReference(const Input& in);

Result Ref_attention_dense_fa2(const Input& in) { return AttentionReference(in); }

}  // namespace vt::torchref
