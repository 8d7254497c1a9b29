// Catalog entry: attention_dense_fast - attention's spec under the CUDA
// variant's name, plus the claim that it equals attention bit for bit.
#include "harness/catalog/attn/attn_entry.h"

namespace vt::conform {

OpSpec Spec_attention_dense_fast() { return attn_entry::DenseAttentionSpec("attention_dense_fast"); }

}  // namespace vt::conform
