// attention_dense_fast on the CPU: the CUDA variant's name for the dense
// attention kernel. The CPU registers the same function as `attention`
// (byte-identical by construction; the catalog's same_as_attention claim
// runs both and compares).
#include "api/kernel_types.h"
#include "cpu/attn/dense_attention.h"
#include "vt/registry.h"

namespace vt::cpu {

void Register_attention_dense_fast() {
  RegisterTyped<kernel::AttentionFn>("attention_dense_fast", Backend::kCPU, &DenseAttentionCpu);
}

}  // namespace vt::cpu
